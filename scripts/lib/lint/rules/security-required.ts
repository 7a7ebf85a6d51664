import type { LintRule } from '../types';
import { asObject } from '../../../../spec/lib';

export const securityRequired: LintRule = {
  id: 'security-on-every-operation',
  contractRule: 'auth-required-401',
  description:
    'Every operation requires a credential: a non-empty security list without an anonymous `{}` alternative, naming defined schemes.',
  check(ctx) {
    const schemes = asObject(asObject(ctx.api.components).securitySchemes);
    const add =
      "add security: [{ bearerAuth: [] }, { oauth2: [] }] (or drop the operation's override of the document's security)";
    for (const op of ctx.operations) {
      const security = op.security;
      const at = op.node.security !== undefined ? ['security'] : [];
      if (security.length === 0) {
        ctx.report(op, at, `requires no security: ${add}`);
      } else if (security.some((req) => Object.keys(req).length === 0)) {
        ctx.report(op, at, `allows anonymous calls (an empty {} alternative): remove it; ${add}`);
      }
      for (const name of new Set(security.flatMap((req) => Object.keys(req)))) {
        if (!(name in schemes))
          ctx.report(
            op,
            at,
            `names security scheme "${name}", which is not defined: add components.securitySchemes.${name}`,
          );
      }
    }
  },
};
