import { ByteWriter } from './byteWriter';

/**
 * One reusable writer, lent out per encode. An encode started while it is lent (a payload getter that encodes
 * again) gets a fresh writer instead of corrupting the outer message.
 */
export class WriterSlot {
  private readonly shared = new ByteWriter();
  private lent = false;

  /** A reset writer for one message; give it back with {@link release}. */
  acquire(): ByteWriter {
    if (this.lent) return new ByteWriter(256);
    this.lent = true;
    this.shared.reset();
    return this.shared;
  }

  /** Returns a writer from {@link acquire}. */
  release(writer: ByteWriter): void {
    if (writer === this.shared) this.lent = false;
  }
}
