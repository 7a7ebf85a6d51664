import { escapeHtml as escapeSpecHtml } from '../../../spec/lib';

/** A spec's text (a pull request's, maybe) as HTML: the one escaping layer, invisible and direction characters shown. */
export function escapeHtml(value: unknown): string {
  return escapeSpecHtml(String(value ?? ''));
}
