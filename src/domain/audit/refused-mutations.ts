import type { ApolloServerPlugin } from '@apollo/server';
import { getArgumentValues, getOperationAST, GraphQLError, Kind, type FieldNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { Context } from '../../kernel/context.js';
import { domainErrorIn, statusOf } from '../../http/door-errors.js';
import { variableErrorMessage } from '../../http/variable-errors.js';
import { guardOf } from '../../graphql/schema.js';
import { recordRefusal, type Refusal } from './refusals.js';

/** The root fields of an operation by their response key (alias or name). */
function rootFields(operation: OperationDefinitionNode): Map<string, FieldNode> {
  const fields = new Map<string, FieldNode>();
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind === Kind.FIELD) fields.set(selection.alias?.value ?? selection.name.value, selection);
  }
  return fields;
}

/**
 * A root field's arguments as the request gave them (none when they do not coerce: the refusal may be
 * just that), and what its guard checks.
 */
function argumentsOf(schema: GraphQLSchema, field: FieldNode, variables: Record<string, unknown> | undefined): Pick<Refusal, 'args' | 'guarded'> {
  const definition = schema.getMutationType()?.getFields()[field.name.value];
  if (!definition) return { args: {} };
  let args: Record<string, unknown>;
  try {
    args = getArgumentValues(definition, field, variables);
  } catch {
    return { args: {} };
  }
  const guard = guardOf(schema, definition as never);
  if (guard?.kind !== 'requires') return { args };
  const id = guard.arg
    .split('.')
    .reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), args);
  return { args, guarded: { on: guard.on, id } };
}

/**
 * The GraphQL door's hook of the audit log: each root field of a mutation that failed with a refusal
 * (a 4xx: see refusals.ts) is recorded once, under its own name. A failure raised before any field ran
 * (a document that does not validate, variables that do not coerce) refuses every root field. Queries
 * are never recorded.
 */
export const recordRefusedMutations: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async didEncounterErrors({ contextValue, operation: resolved, document, errors, schema, request }) {
        // A document that read but did not validate (a literal of the wrong type, ...) has no resolved operation yet.
        const operation = resolved ?? (document ? getOperationAST(document, request.operationName) : null);
        if (operation?.operation !== 'mutation' || !contextValue.viewer) return;
        const fields = rootFields(operation);
        const refused = new Map<string, GraphQLError>();
        for (const error of errors) {
          const path = error.path;
          if (!path) for (const key of fields.keys()) refused.set(key, refused.get(key) ?? error);
          // A deeper path is a field of what a successful mutation answered: the change happened.
          else if (path.length === 1 && typeof path[0] === 'string' && !refused.has(path[0])) refused.set(path[0], error);
        }
        for (const [key, error] of refused) {
          const field = fields.get(key);
          if (!field) continue;
          const domain = domainErrorIn(error);
          await recordRefusal(contextValue, {
            operation: field.name.value,
            status: statusOf(error),
            message: domain?.message ?? variableErrorMessage(error.message),
            ...argumentsOf(schema, field, request.variables),
          });
        }
      },
    };
  },
};
