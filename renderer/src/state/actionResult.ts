import { IpcError, IpcErrorCode } from '../../../shared/ipc/errors';

/** How a user action ended, for the form or button that started it. */
export type ActionResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: IpcErrorCode; readonly message: string; readonly detail?: string };

/** A successful action. */
export const OK: ActionResult = { ok: true };

/** The failure of an action as data: an IpcError keeps its code, anything else is internal. */
export function failureOf(error: unknown): ActionResult {
  if (error instanceof IpcError) {
    return { ok: false, code: error.code, message: error.message, ...(error.detail ? { detail: error.detail } : {}) };
  }
  return { ok: false, code: IpcErrorCode.INTERNAL, message: error instanceof Error ? error.message : String(error) };
}

/** The text of any thrown value. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
