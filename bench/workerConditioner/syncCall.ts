import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

/** A request, or its answer, with the id the answer must carry (stale answers to timed-out calls are skipped). */
interface Envelope<T> {
  id: number;
  body?: T;
  /** Set instead of body when answering threw. */
  error?: string;
}

/**
 * The calling side of a synchronous call into another thread: posts a request, blocks on a shared counter until
 * the other side has answered, then takes the answer off the port. Lets a worker-backed object keep a synchronous
 * API (stats(), setProfile()) with exact, up-to-date results.
 */
export class SyncCaller<Request, Answer> {
  private readonly signal: Int32Array;
  private nextId = 0;

  constructor(
    private readonly port: MessagePort,
    signal: SharedArrayBuffer,
    private readonly timeoutMs: number,
  ) {
    this.signal = new Int32Array(signal);
  }

  /** Sends `request` and returns the answer; throws if none arrives within the timeout. */
  call(request: Request, timeoutMs = this.timeoutMs): Answer {
    const id = this.nextId++;
    this.port.postMessage({ id, body: request } satisfies Envelope<Request>);
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      // Read the counter before looking: an answer posted after the look changes it, so the wait returns at once.
      const before = Atomics.load(this.signal, 0);
      const received = receiveMessageOnPort(this.port) as { message: Envelope<Answer> } | undefined;
      if (received !== undefined) {
        const { message } = received;
        if (message.id !== id) continue; // an answer to an earlier call that timed out
        if (message.error !== undefined) throw new Error(message.error);
        return message.body as Answer;
      }
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no answer from the other thread within ${timeoutMs} ms`);
      Atomics.wait(this.signal, 0, before, left);
    }
  }
}

/** The answering side: runs `answer` for every request on `port` and wakes the caller blocked on `signal`. */
export function serveSyncCalls<Request, Answer>(
  port: MessagePort,
  signal: SharedArrayBuffer,
  answer: (request: Request) => Answer,
): void {
  const counter = new Int32Array(signal);
  port.on('message', ({ id, body }: Envelope<Request>) => {
    let reply: Envelope<Answer>;
    try {
      reply = { id, body: answer(body as Request) };
    } catch (error) {
      reply = { id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
    // After the post: once the caller wakes, the answer is already on its port.
    Atomics.add(counter, 0, 1);
    Atomics.notify(counter, 0);
  });
}
