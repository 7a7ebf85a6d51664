/** Schemas shaped like the contract's, shared by the generator tests. */
import { UUID_PATTERN } from './patterns';
import type { JsonSchema } from './schema';

export const uuid = { type: 'string', pattern: UUID_PATTERN };
const nullableUuid = { type: ['string', 'null'], pattern: UUID_PATTERN };
const timestamp = { type: 'string', format: 'date-time' };
const reason = { type: 'string', enum: ['unsubscribed', 'bounced', 'complained', 'manual'] };
export const loginProviders = ['email', 'social-oauth2', 'enterprise-directory', 'single-sign-on', 'agent-identity'];

export const SCHEMAS: [string, JsonSchema][] = [
  ['limit 1..1000', { type: 'integer', minimum: 1, maximum: 1000 }],
  ['limit with exclusiveMinimum 0', { type: 'integer', exclusiveMinimum: 0, maximum: 1000 }],
  ['offset up to 2^53-1', { type: 'integer', minimum: 0, maximum: 9007199254740991 }],
  ['workspace name', { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^<>]*$' }],
  ['description 1..1000', { type: 'string', minLength: 1, maxLength: 1000 }],
  ['uuid', uuid],
  ['nullable uuid', nullableUuid],
  ['suppression reason', reason],
  ['reasons filter', { type: 'array', items: reason, uniqueItems: true }],
  [
    'sql query body',
    {
      type: 'object',
      required: ['query'],
      additionalProperties: false,
      properties: { query: { type: 'string', minLength: 1, maxLength: 10000 } },
    },
  ],
  [
    'suppression',
    {
      type: 'object',
      additionalProperties: false,
      required: ['uuid', 'workspaceUuid', 'email', 'reason', 'mailboxUuid', 'messageUuid', 'createdAt', 'updatedAt'],
      properties: {
        uuid,
        workspaceUuid: uuid,
        email: { type: 'string' },
        reason,
        mailboxUuid: nullableUuid,
        messageUuid: nullableUuid,
        createdAt: timestamp,
        updatedAt: timestamp,
      },
    },
  ],
  [
    'action: tool variant beside an open variant',
    {
      type: 'array',
      items: {
        oneOf: [
          {
            type: 'object',
            required: ['kind', 'name'],
            properties: {
              kind: { const: 'tool' },
              name: { type: 'string', minLength: 1 },
              toolUuid: uuid,
              waitUntilFinished: { type: 'boolean' },
            },
          },
          { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } } },
        ],
      },
    },
  ],
  [
    'string or integer',
    {
      anyOf: [
        { type: 'string', maxLength: 5 },
        { type: 'integer', minimum: 0 },
      ],
    },
  ],
  [
    'allOf merge',
    {
      allOf: [
        { type: 'object', properties: { a: { type: 'string', minLength: 2 } }, required: ['a'] },
        { properties: { a: { maxLength: 4 }, b: { type: 'integer', maximum: 5 } }, required: ['b'] },
      ],
    },
  ],
  ['number between exclusive 0 and 1', { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }],
  ['map of counts', { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } }],
  [
    'nested arrays',
    {
      type: 'array',
      minItems: 1,
      maxItems: 3,
      items: { type: 'array', maxItems: 2, items: { type: 'string', maxLength: 2 } },
    },
  ],
  ['timestamp', timestamp],
  ['const', { const: 'tool' }],
  ['unknown pattern', { type: 'string', pattern: '^[a-z]{2,5}$' }],
  ['boolean', { type: 'boolean' }],
  ['open object', { type: 'object' }],
  ['nullable string array', { type: ['array', 'null'], items: { type: 'string' } }],
  ['multiple of 5', { type: 'integer', multipleOf: 5, minimum: 0, maximum: 100 }],
  ['examples as seeds', { type: 'string', minLength: 3, examples: ['hello', 'x'] }],
  [
    'update current workspace body',
    {
      type: 'object',
      properties: {
        syncs: {
          type: 'array',
          items: { type: 'object', required: ['cron'], properties: { cron: { type: 'string' } } },
        },
        name: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^<>]*$' },
        allowedEmailDomains: { type: 'array', items: { type: 'string' } },
        logoBase64: { type: ['string', 'null'] },
        metadata: {
          type: 'object',
          properties: {
            mainGoal: { type: 'array', items: { type: 'string' } },
            salesRepCount: { type: 'string' },
          },
        },
        browserExtensionMasterAgentUuid: nullableUuid,
        browserExtensionAvailableAgentUuids: { type: ['array', 'null'], items: { type: 'string' } },
        defaultRoleUuid: nullableUuid,
        allowedLoginProviders: { type: ['array', 'null'], items: { type: 'string', enum: loginProviders } },
      },
    },
  ],
  [
    'nullable object as oneOf with null',
    {
      oneOf: [
        {
          type: 'object',
          required: ['x'],
          additionalProperties: false,
          properties: { x: { type: 'number', minimum: 0, maximum: 1 } },
        },
        { type: 'null' },
      ],
    },
  ],
  [
    'closed variants told apart by const',
    {
      oneOf: [
        {
          type: 'object',
          required: ['slug'],
          additionalProperties: false,
          properties: { slug: { const: 'sandbox' }, config: { type: 'object' } },
        },
        {
          type: 'object',
          required: ['slug', 'scope'],
          additionalProperties: false,
          properties: { slug: { const: 'chat' }, scope: { enum: ['chat', 'all'] } },
        },
      ],
    },
  ],
  ['string that is not an excluded word', { type: 'string', minLength: 1, not: { enum: ['viewer'] } }],
  [
    'object with pattern properties and a size',
    { type: 'object', minProperties: 1, maxProperties: 3, patternProperties: { '^x-': { type: 'integer' } } },
  ],
  ['OpenAPI 3.0 nullable', { type: 'integer', nullable: true, minimum: 1 }],
  ['any value', true],
];
