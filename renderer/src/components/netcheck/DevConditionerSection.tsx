import { useEffect, useState, type FormEvent } from 'react';
import { useAppStore } from '../../state/AppStoreContext';

type Profile = { loss: number; latencyMs: number; jitterMs: number };

const describeProfile = (p: Profile | null, active: boolean): string =>
  p === null
    ? 'Off: rooms are joined directly.'
    : `On: ${Math.round(p.loss * 1000) / 10}% loss, ${p.latencyMs} ms latency, ±${p.jitterMs} ms jitter each way` +
      (active ? ' (applied to the room you are in).' : ' (applies to the next room you join).');

/** Developer tool: joins rooms through a local link conditioner that adds loss, latency and jitter. */
export function DevConditionerSection() {
  // The app's one link to the backend (the preload bridge in Electron, the page's WebSocket in the browser).
  const api = useAppStore((s) => s.api);
  const [form, setForm] = useState({ loss: '0', latencyMs: '0', jitterMs: '0' });
  const [status, setStatus] = useState('Loading…');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!api) return;
    let alive = true;
    api['dev.getConditioner']()
      .then((view) => {
        if (!alive) return;
        if (view.profile) {
          const p = view.profile;
          setForm({ loss: String(p.loss * 100), latencyMs: String(p.latencyMs), jitterMs: String(p.jitterMs) });
        }
        setStatus(describeProfile(view.profile, view.active));
      })
      .catch((e: unknown) => alive && setError(`Developer settings unavailable: ${String(e)}`));
    return () => {
      alive = false;
    };
  }, [api]);

  const send = async (profile: Profile | null): Promise<void> => {
    if (!api) return;
    setError(null);
    try {
      const view = await api['dev.setConditioner']({ profile });
      setStatus(describeProfile(view.profile, view.active));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const apply = (event: FormEvent) => {
    event.preventDefault();
    void send({ loss: Number(form.loss) / 100, latencyMs: Number(form.latencyMs), jitterMs: Number(form.jitterMs) });
  };
  const field = (key: keyof typeof form, label: string, max: number, step: string) => (
    <div className="field">
      <label className="field-label" htmlFor={`dev-conditioner-${key}`}>
        {label}
      </label>
      <input
        id={`dev-conditioner-${key}`}
        className="input"
        type="number"
        min={0}
        max={max}
        step={step}
        value={form[key]}
        onChange={(e) => setForm({ ...form, [key]: e.target.value })}
      />
    </div>
  );

  return (
    <details className="card">
      <summary className="card-title">Developer: simulate a bad network</summary>
      <form onSubmit={apply} aria-label="Simulated network for joined rooms">
        {field('loss', 'Packet loss (%)', 100, '0.1')}
        {field('latencyMs', 'Latency each way (ms)', 60000, '1')}
        {field('jitterMs', 'Jitter (ms)', 60000, '1')}
        <div className="field-row">
          <button type="submit" className="button button-small-primary" disabled={!api}>
            Apply
          </button>
          <button type="button" className="button button-small" disabled={!api} onClick={() => void send(null)}>
            Clear
          </button>
        </div>
      </form>
      <p className="muted small" role="status" aria-live="polite">
        {status}
      </p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </details>
  );
}
