import type { LintRule } from '../types';

export const operationDescription: LintRule = {
  id: 'operations-have-a-description',
  contractRule: 'response-conformance',
  description:
    'Every operation has a description (a summary alone does not say what the description of the API leaves unshown).',
  check(ctx) {
    for (const op of ctx.operations) {
      const text = op.node.description;
      if (typeof text === 'string' && text.trim() !== '') continue;
      ctx.report(
        op,
        [],
        'has no description: add description: <what it does, in the words of the description of the API, and what it leaves unshown>',
      );
    }
  },
};
