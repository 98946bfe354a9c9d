import type { NetworkCheckReport } from '../../../../shared/netcheck/report';
import { CheckIcon, WarningIcon } from '../common/Icons';

function Status({ ok }: { ok: boolean }) {
  return (
    <span className={ok ? 'status-ok' : 'status-bad'}>
      {ok ? <CheckIcon size={16} /> : <WarningIcon size={16} />}
      <span className="visually-hidden">{ok ? 'OK' : 'Problem'}</span>
    </span>
  );
}

const portNames = { discovery: 'Finding rooms', game: 'Playing' } as const;

/** The measured facts of a network check: ports, the discovery self-test, the NAT type, interfaces and the receive buffer. */
export function NetcheckDetails({ report }: { report: NetworkCheckReport }) {
  const self = report.selfDiscovery;
  return (
    <div className="netcheck-grid">
      <section className="card" aria-labelledby="nc-ports">
        <h2 id="nc-ports" className="card-title">
          Ports
        </h2>
        <ul className="fact-list">
          {report.ports.map((port) => (
            <li key={port.role}>
              <Status ok={port.ok} />
              <div>
                <strong>
                  {portNames[port.role]} · UDP {port.boundPort ?? port.port}
                </strong>
                <p className="muted small">{port.message}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>
      <section className="card" aria-labelledby="nc-discovery">
        <h2 id="nc-discovery" className="card-title">
          Discovery self-test
        </h2>
        <ul className="fact-list">
          <li>
            <Status ok={self.status === 'heard' || self.status === 'skipped'} />
            <div>
              <strong>
                {self.status === 'heard' ? 'Heard its own search' : self.status === 'skipped' ? 'Skipped' : 'Not heard'}
              </strong>
              <p className="muted small">{self.message}</p>
            </div>
          </li>
          <li>
            <Status ok={report.receiveBuffer.status !== 'clamped'} />
            <div>
              <strong>Receive buffer</strong>
              <p className="muted small">{report.receiveBuffer.message}</p>
            </div>
          </li>
        </ul>
      </section>
      <section className="card" aria-labelledby="nc-nat">
        <h2 id="nc-nat" className="card-title">
          Internet rooms
        </h2>
        <ul className="fact-list">
          <li>
            <Status ok={!['symmetric', 'blocked', 'failed'].includes(report.nat.status)} />
            <div>
              <strong>{report.nat.title}</strong>
              <p className="muted small">{report.nat.message}</p>
              {report.nat.mappings.length > 0 ? (
                <p className="muted small mono">
                  {report.nat.mappings
                    .map((row) => `${row.server} saw ${row.mapped ?? 'nothing (no answer)'}`)
                    .join(' · ')}
                </p>
              ) : null}
            </div>
          </li>
          {report.dht ? (
            <li>
              <Status ok={!['randomized', 'failed'].includes(report.dht.status)} />
              <div>
                <strong>DHT: {report.dht.title}</strong>
                <p className="muted small">{report.dht.message}</p>
                {report.dht.publicAddress ? (
                  <p className="muted small mono">the DHT sees {report.dht.publicAddress}</p>
                ) : null}
              </div>
            </li>
          ) : null}
        </ul>
      </section>
      <section className="card netcheck-wide" aria-labelledby="nc-interfaces">
        <h2 id="nc-interfaces" className="card-title">
          Networks searched
        </h2>
        {report.interfaces.length === 0 ? (
          <p className="muted">No IPv4 network connections found.</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Connection</th>
                <th scope="col">Address</th>
                <th scope="col">Searched via</th>
              </tr>
            </thead>
            <tbody>
              {report.interfaces.map((row) => (
                <tr key={`${row.name}-${row.address}`}>
                  <td>{row.name}</td>
                  <td className="mono">
                    {row.address}
                    {row.prefixLength !== null ? `/${row.prefixLength}` : ''}
                  </td>
                  <td>
                    {row.broadcast ? (
                      <span className="mono">{row.broadcast}</span>
                    ) : (
                      <span className="muted">{row.skipped}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
