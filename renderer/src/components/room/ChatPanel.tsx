import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ChatLine, LobbyPlayer } from '../../../../shared/lobby/lobbyState';
import type { ActionResult } from '../../state/actionResult';
import { SendIcon } from '../common/Icons';

const CHAT_MAX = 200;

/** The room chat: the log (newest at the bottom, announced politely) and a line to type into. */
export function ChatPanel({
  chat,
  players,
  you,
  onSend,
}: {
  chat: readonly ChatLine[];
  players: readonly LobbyPlayer[];
  you: number | null;
  onSend: (text: string) => Promise<ActionResult>;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const log = useRef<HTMLOListElement>(null);
  const colours = new Map(players.map((p) => [p.id, p.colour]));

  useEffect(() => {
    const element = log.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [chat.length]);

  const send = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (text.trim() === '' || sending) return;
    setSending(true);
    const result = await onSend(text);
    setSending(false);
    if (result.ok) {
      setText('');
      setError(null);
    } else setError(result.message);
  };

  return (
    <section className="card chat" aria-labelledby="chat-title">
      <h2 id="chat-title" className="card-title">
        Chat
      </h2>
      <ol ref={log} className="chat-log" aria-live="polite" aria-label="Chat log" tabIndex={0}>
        {chat.length === 0 && <li className="chat-empty">No messages yet. Say hi!</li>}
        {chat.map((line) => (
          <li key={line.id} className={`chat-line${line.from === you ? ' chat-line-you' : ''}`}>
            <span className="chat-name" style={{ color: colours.get(line.from) ?? 'var(--text-muted)' }}>
              {line.name}
            </span>
            <span className="chat-text">{line.text}</span>
          </li>
        ))}
      </ol>
      <form className="chat-form" onSubmit={(event) => void send(event)}>
        <input
          className="input"
          type="text"
          placeholder="Message the room"
          aria-label="Chat message"
          maxLength={CHAT_MAX}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="button button-primary icon-only" aria-label="Send message" disabled={sending}>
          <SendIcon />
        </button>
      </form>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
