import { ByteWriter } from './byteWriter';

/**
 * One reusable writer, lent out per encode. An encode started while it is lent (a payload getter that encodes
 * again) gets a fresh writer instead of corrupting the outer message.
 */
export class WriterSlot {
  /** Made on first use: a writer holds a 32 KiB slab, and many schemas are only ever encoded by a serializer. */
  private shared: ByteWriter | undefined;
  private lent = false;

  /** A reset writer for one message; give it back with {@link release}. */
  acquire(): ByteWriter {
    if (this.lent) return new ByteWriter(256);
    this.lent = true;
    const writer = (this.shared ??= new ByteWriter());
    writer.reset();
    return writer;
  }

  /** Returns a writer from {@link acquire}. */
  release(writer: ByteWriter): void {
    if (writer === this.shared) this.lent = false;
  }
}
