import { mermaidFlowchart } from './mermaidFlowchart';
import { partGraph } from './partGraph';
import { cruiseWithProjectRules, readKnownViolations } from './projectCruise';

/** The code the picture draws: the app's processes, not its tests or tools. */
const DRAWN_ROOTS = ['main', 'shared', 'renderer', 'preload'];

/** The fenced Mermaid block docs/architecture.md shows, generated from the code as it is now. */
export async function architectureGraphBlock(): Promise<string> {
  // Known violations count as rule breaks (drawn red) without failing the cruise.
  const result = await cruiseWithProjectRules(DRAWN_ROOTS, { overrides: { knownViolations: readKnownViolations() } });
  return `\`\`\`mermaid\n${mermaidFlowchart(partGraph(result))}\`\`\``;
}
