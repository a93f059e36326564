import { compareServerVariables, compareStatementPlans } from '../analysis/index.js';
import type { ComparisonView } from '../model/index.js';
import type { SessionSideStore } from '../store/index.js';

/**
 * What differs between what the two sides ran with: their server variables and their statement plans, each compared
 * when the session kept both sides' (a session from before they were kept has neither).
 */
export async function sideDifferences(
  store: Pick<SessionSideStore, 'serverVariables' | 'statementPlans'>,
  sessionId: number,
): Promise<Pick<ComparisonView, 'variables' | 'plans'>> {
  const variables = await store.serverVariables(sessionId);
  const plans = await store.statementPlans(sessionId);
  return {
    ...(variables.baseline !== undefined && variables.candidate !== undefined
      ? { variables: compareServerVariables(variables.baseline, variables.candidate) }
      : {}),
    ...(plans.baseline !== undefined && plans.candidate !== undefined
      ? { plans: compareStatementPlans(plans.baseline, plans.candidate) }
      : {}),
  };
}
