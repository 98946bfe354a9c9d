import { z } from 'zod';
import { IpcErrorCode, type IpcErrorData } from './errors';

/** What every request returns across the boundary: the output, or a typed error as data. */
export type IpcResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: IpcErrorData };

/** A successful result. */
export function ok<T>(value: T): IpcResult<T> {
  return { ok: true, value };
}

/** A failed result. */
export function err(code: IpcErrorCode, message: string, detail?: string): IpcResult<never> {
  return { ok: false, error: { code, message, ...(detail !== undefined ? { detail } : {}) } };
}

/** Schema of the error data, for receivers that must not trust the other side. */
export const ipcErrorDataSchema = z.object({
  code: z.enum(Object.values(IpcErrorCode) as [IpcErrorCode, ...IpcErrorCode[]]),
  message: z.string(),
  detail: z.string().optional(),
});

/** Schema of a result envelope whose value is checked elsewhere (by the contract's output schema; JSON drops a void one). */
export const ipcResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown().optional() }),
  z.object({ ok: z.literal(false), error: ipcErrorDataSchema }),
]);
