import { Component, type ErrorInfo, type ReactNode } from 'react';
import type { LobbyView } from '../../../../shared/ipc/schemas/lobby';
import type { ResultsActions } from '../../game/results/ResultsOverlay';
import { GameStage } from './GameStage';
import { RoundInProgressPanel } from './RoundInProgressPanel';

interface Props {
  readonly view: LobbyView;
  readonly onEndRound: () => void;
  /** Told whether the winner screen is up. */
  readonly onRoundOver?: (over: boolean) => void;
  /** The winner screen's Play again (host) and Back to the lobby. */
  readonly resultsActions?: ResultsActions;
}

/**
 * Where the room shows the round: the game stage (GameStage.tsx, owned by the game), inside an error boundary so a
 * failing game never takes the room (chat, Leave) down with it; the fallback says the round is on.
 */
export class GameSlot extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('[lanParty] the game stage failed; showing the round panel instead', error, info.componentStack);
  }

  override render(): ReactNode {
    const { view, onEndRound, onRoundOver, resultsActions } = this.props;
    return (
      <div className="game-slot" data-testid="game-slot">
        {this.state.failed ? (
          <RoundInProgressPanel view={view} onEndRound={onEndRound} />
        ) : (
          <GameStage view={view} onEndRound={onEndRound} onRoundOver={onRoundOver} resultsActions={resultsActions} />
        )}
      </div>
    );
  }
}
