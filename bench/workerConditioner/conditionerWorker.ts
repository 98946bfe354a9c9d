// The entry of a worker thread that runs one LinkConditioner (see workerConditioner.ts): the relay's sockets and
// link model get a thread of their own instead of sharing the event loop of the code that sends through it.
import { parentPort, workerData } from 'node:worker_threads';
import { LinkConditioner } from '../../main/conditioner/linkConditioner';
import { serveSyncCalls } from './syncCall';
import {
  toThreadError,
  type ControlAnswers,
  type ControlRequest,
  type FromWorker,
  type ToWorker,
  type WorkerStartData,
} from './workerMessages';

const data = workerData as WorkerStartData;
const port = parentPort;
if (port === null) throw new Error('conditionerWorker.ts runs as a worker thread (WorkerConditioner.start)');
const post = (message: FromWorker): void => port.postMessage(message);

function answer(relay: LinkConditioner, request: ControlRequest): ControlAnswers[ControlRequest['op']] {
  switch (request.op) {
    case 'stats':
      return relay.stats();
    case 'clients':
      return relay.clients();
    case 'setProfile':
      for (const [direction, profile] of request.changes) relay.setProfile(direction, profile);
      return null;
  }
}

LinkConditioner.start(data.options).then(
  (relay) => {
    serveSyncCalls(data.control, data.signal, (request: ControlRequest) => answer(relay, request));
    const onMessage = (message: ToWorker): void => {
      if (message.kind !== 'close') return;
      port.off('message', onMessage);
      void relay.close().then(() => {
        post({ kind: 'closed', stats: relay.stats() });
        // Nothing is left listening, so the thread ends on its own: a leaked handle would show as a close() hang.
        data.control.close();
      });
    };
    port.on('message', onMessage);
    post({ kind: 'ready', address: relay.address });
  },
  (error: unknown) => {
    post({ kind: 'failed', error: toThreadError(error) });
    data.control.close();
  },
);
