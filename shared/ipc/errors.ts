// Errors cross the process boundary as plain data; IpcError is the throwable form on either side.

/** Every error code a request can fail with. */
export const IpcErrorCode = {
  INVALID_ARGUMENT: 'invalid-argument',
  NOT_FOUND: 'not-found',
  ALREADY_EXISTS: 'already-exists',
  FAILED_PRECONDITION: 'failed-precondition',
  PERMISSION_DENIED: 'permission-denied',
  UNAVAILABLE: 'unavailable',
  INTERNAL: 'internal',
} as const;

/** One of the {@link IpcErrorCode} values. */
export type IpcErrorCode = (typeof IpcErrorCode)[keyof typeof IpcErrorCode];

/** The wire form of a failed request. */
export interface IpcErrorData {
  readonly code: IpcErrorCode;
  readonly message: string;
  /** The raw cause (errno, address, what was tried) for a "Details" toggle; the message stays plain words. */
  readonly detail?: string;
}

const knownCodes: ReadonlySet<string> = new Set(Object.values(IpcErrorCode));

/** Whether a string is one of the {@link IpcErrorCode} values. */
export function isIpcErrorCode(value: unknown): value is IpcErrorCode {
  return typeof value === 'string' && knownCodes.has(value);
}

/** Thrown by handlers in main to fail with a specific code; thrown by the renderer's API client on failure. */
export class IpcError extends Error {
  override readonly name = 'IpcError';

  constructor(
    readonly code: IpcErrorCode,
    message: string,
    /** The raw cause, shown only on request. */
    readonly detail?: string,
  ) {
    super(message);
  }

  /** The plain-data form that crosses IPC / WebSocket. */
  toData(): IpcErrorData {
    return { code: this.code, message: this.message, ...(this.detail !== undefined ? { detail: this.detail } : {}) };
  }

  /** Rebuilds the throwable form from wire data. */
  static fromData(data: IpcErrorData): IpcError {
    return new IpcError(data.code, data.message, data.detail);
  }
}
