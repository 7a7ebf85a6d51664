// Webhooks and callbacks: requests the API sends to subscribers, compared with the rules of operations, directions
// reversed. The payload (and the parameters and headers the API sends with it) is read by subscribers, so it is
// compared as a response is (a removed field breaks them); the subscriber's answer is read by the API, so it is
// compared as a request is (a newly required field in it breaks subscribers who answer as before). Each change keeps
// the rule that decides it and reads in the notification's own words.
// @see https://spec.openapis.org/oas/v3.1.0#oasWebhooks
// @see https://spec.openapis.org/oas/v3.1.0#callback-object

import { type Anchor, type Change, type Emit, makeChange, type Place } from './change';
import * as at from './place';
import { compareContent, compareOperationMeta, compareResponseHeaders, type CompareOptions } from './compare-parts';
import { asObject, isObject, type JsonObject } from '../../../spec/lib/json';
import { HTTP_METHODS, mergeParameters, type HttpMethod } from '../../../spec/lib/operations';
import { defineRules, NO_TYPES } from './rules';

/** Webhooks and callbacks as a whole, their payload and the statuses the API accepts in answer. */
export const NOTIFICATION_RULES = defineRules({
  'webhook-removed': ['breaking', 'subscribers stop receiving the notifications they were promised'],
  'webhook-added': ['non-breaking', 'a new notification does not change existing ones'],
  'callback-removed': ['breaking', 'subscribers stop receiving the callbacks they were promised', NO_TYPES],
  'callback-added': ['non-breaking', 'a new callback does not change existing ones', NO_TYPES],
  'notification-payload-removed': ['breaking', 'subscribers reading the payload receive none'],
  'notification-payload-added': ['non-breaking', 'subscribers ignore a body they do not read'],
  'subscriber-answer-status-removed': [
    'breaking',
    'subscribers answering with it have their delivery counted as failed',
  ],
  'subscriber-answer-status-added': ['non-breaking', 'answers accepted before are still accepted'],
});

export type Channel = NonNullable<Change['channel']>;

/** `webhook thingCreated (POST)`; `callback onDone {$request.body#/url} (POST) of POST /things`. */
export function notificationLabel(channel: Channel, name: string, method: string, parent?: string): string {
  return channel === 'webhook'
    ? `webhook ${name} (${method.toUpperCase()})`
    : `callback ${name} (${method.toUpperCase()}) of ${parent}`;
}

/**
 * The words of a rule said of a notification: on the payload side the reader is the subscriber; on the answer side
 * the sender is the subscriber and the reader the API.
 */
const PAYLOAD_WORDS: Array<[RegExp, string]> = [
  [/\bresponse field\b/g, 'payload field'],
  [/\bresponse header\b/g, 'header'],
  [/\bgenerated clients\b/g, 'subscriber code generators'],
  [/\bclients\b/g, 'subscribers'],
  [/\bClients\b/g, 'Subscribers'],
  [/\bresponses\b/g, 'notifications'],
  [/\bresponse\b/g, 'notification'],
];
const ANSWER_WORDS: Array<[RegExp, string]> = [
  [/\brequest field\b/g, 'answer field'],
  [/\brequest body\b/g, 'answer body'],
  [/\brequest parameter\b/g, 'parameter'],
  [/\bclients\b/g, 'subscribers'],
  [/\bClients\b/g, 'Subscribers'],
  [/\b(now )?get (400|415)\b/g, 'have their answer refused by the API'],
  [/\bsending\b/g, 'answering with'],
  [/\bsend\b/g, 'answer with'],
  [/\bthe server\b/g, 'the API'],
  [/\brequests\b/g, 'answers'],
];
const reword = (text: string, words: Array<[RegExp, string]>) =>
  words.reduce((out, [pattern, to]) => out.replace(pattern, to), text);

type NotificationEmitter = (side: 'payload' | 'answer') => Emit;

function emitterFor(changes: Change[], label: string, channel: Channel, parent?: string): NotificationEmitter {
  return (side) => (rule, location, detail, anchor) => {
    const change = makeChange(rule, label, location, detail, anchor);
    const words = side === 'payload' ? PAYLOAD_WORDS : ANSWER_WORDS;
    change.detail = reword(change.detail, words);
    change.reason = reword(change.reason, words);
    change.channel = channel;
    if (parent) change.parentOperation = parent;
    changes.push(change);
  };
}

/** The methods of a path item that hold an operation. */
function methodsOf(item: unknown): HttpMethod[] {
  return HTTP_METHODS.filter((m) => isObject(asObject(item)[m]));
}

/** The headers, query and path parameters the API sends, as response headers are: name → header object. */
function sentParameters(item: JsonObject, operation: JsonObject): JsonObject {
  const out: JsonObject = {};
  // The operation model's merge: the operation's own replaces the path item's (header names ignoring case).
  const read = (raw: unknown) => {
    const p = asObject(raw);
    return typeof p.name === 'string' && typeof p.in === 'string' ? { ...p, name: p.name, in: p.in } : undefined;
  };
  for (const p of mergeParameters(item.parameters, operation.parameters, read))
    out[p.in === 'header' ? p.name : `${p.in} ${p.name}`] = p;
  return out;
}

/** The payload the API sends (the notification's request body) and the answers it reads (its responses). */
const PAYLOAD = at.requestBody('payload');

/** A parameter the API sends with the payload, by its key in sentParameters. */
function sentAt(sent: JsonObject[], key: string): Place {
  const p = asObject(sent.find((side) => key in side)?.[key]);
  const part = { kind: 'parameter', in: String(p.in), name: String(p.name) } as const;
  return { location: `payload header ${key}`, part };
}

/** One notification present on both sides: the payload as a response, the answer as a request. */
function compareNotification(
  b: { item: JsonObject; operation: JsonObject; method: HttpMethod },
  h: { item: JsonObject; operation: JsonObject; method: HttpMethod },
  emit: NotificationEmitter,
  options: CompareOptions,
): void {
  const payload = emit('payload');
  const answer = emit('answer');
  compareOperationMeta(b.operation, h.operation, payload, options.now, 'the notification');
  // What the API sends with the payload: removed or made optional breaks subscribers that read it.
  const sent = [sentParameters(b.item, b.operation), sentParameters(h.item, h.operation)];
  compareResponseHeaders(sent[0], sent[1], (key) => sentAt(sent, key), payload, options, h.operation);
  const bBody = b.operation.requestBody;
  const hBody = h.operation.requestBody;
  const bodyAnchor: Anchor = { head: hBody ?? h.operation, base: bBody ?? b.operation };
  if (isObject(bBody) && !isObject(hBody))
    payload(
      NOTIFICATION_RULES['notification-payload-removed'],
      PAYLOAD,
      'payload removed: the API now sends no body',
      bodyAnchor,
    );
  else if (!isObject(bBody) && isObject(hBody))
    payload(NOTIFICATION_RULES['notification-payload-added'], PAYLOAD, 'payload added', bodyAnchor);
  else if (isObject(bBody) && isObject(hBody))
    compareContent(bBody.content, hBody.content, 'output', PAYLOAD, payload, options, bodyAnchor);
  // The subscriber's answer: statuses the API accepts, and what it reads from their bodies.
  const bAnswers = asObject(b.operation.responses);
  const hAnswers = asObject(h.operation.responses);
  for (const status of Object.keys(bAnswers)) {
    if (!(status in hAnswers))
      answer(
        NOTIFICATION_RULES['subscriber-answer-status-removed'],
        at.response(status, `answer ${status}`),
        `the API no longer accepts answer ${status} from subscribers`,
        { head: hAnswers, base: bAnswers[status] },
      );
  }
  for (const status of Object.keys(hAnswers)) {
    const where = at.response(status, `answer ${status}`);
    if (!(status in bAnswers)) {
      answer(
        NOTIFICATION_RULES['subscriber-answer-status-added'],
        where,
        `the API now accepts answer ${status} from subscribers`,
        {
          head: hAnswers[status],
        },
      );
      continue;
    }
    const bAnswer = asObject(bAnswers[status]);
    const hAnswer = asObject(hAnswers[status]);
    compareContent(bAnswer.content, hAnswer.content, 'input', where, answer, options, {
      head: hAnswer,
      base: bAnswer,
    });
  }
}

/** A map of notifications (a document's `webhooks`, or one Callback Object's expressions) compared entry by entry. */
function compareNotificationMap(
  base: JsonObject,
  head: JsonObject,
  channel: Channel,
  changes: Change[],
  options: CompareOptions,
  naming: (key: string) => string,
  parent?: string,
): void {
  const removedRule = NOTIFICATION_RULES[`${channel}-removed`];
  const addedRule = NOTIFICATION_RULES[`${channel}-added`];
  for (const [key, item] of Object.entries(base)) {
    const kept = methodsOf(head[key]);
    for (const method of methodsOf(item)) {
      const label = notificationLabel(channel, naming(key), method, parent);
      const emit = emitterFor(changes, label, channel, parent)('payload');
      if (!kept.includes(method)) {
        emit(removedRule, at.wholeOperation(channel), `${channel} ${naming(key)} (${method.toUpperCase()}) removed`, {
          base: asObject(item)[method],
          head: isObject(head[key]) ? head[key] : head,
        });
        continue;
      }
      compareNotification(
        { item: asObject(item), operation: asObject(asObject(item)[method]), method },
        { item: asObject(head[key]), operation: asObject(asObject(head[key])[method]), method },
        emitterFor(changes, label, channel, parent),
        options,
      );
    }
  }
  for (const [key, item] of Object.entries(head)) {
    const had = methodsOf(base[key]);
    for (const method of methodsOf(item)) {
      if (had.includes(method)) continue;
      const label = notificationLabel(channel, naming(key), method, parent);
      emitterFor(changes, label, channel, parent)('payload')(
        addedRule,
        at.wholeOperation(channel),
        `${channel} ${naming(key)} (${method.toUpperCase()}) added`,
        { head: asObject(item)[method] },
      );
    }
  }
}

/** The document's webhooks: each is a notification named by its key. */
export function compareWebhooks(base: JsonObject, head: JsonObject, changes: Change[], options: CompareOptions): void {
  compareNotificationMap(asObject(base.webhooks), asObject(head.webhooks), 'webhook', changes, options, (k) => k);
}

/**
 * The callbacks of one operation present on both sides: each callback name and runtime expression (the URL the API
 * calls) is a notification; a changed expression is the old one removed and a new one added.
 */
export function compareCallbacks(
  base: JsonObject,
  head: JsonObject,
  parent: string,
  changes: Change[],
  options: CompareOptions,
): void {
  const b = asObject(base.callbacks);
  const h = asObject(head.callbacks);
  for (const name of new Set([...Object.keys(b), ...Object.keys(h)])) {
    compareNotificationMap(
      asObject(b[name]),
      asObject(h[name]),
      'callback',
      changes,
      options,
      (expression) => `${name} ${expression}`,
      parent,
    );
  }
}
