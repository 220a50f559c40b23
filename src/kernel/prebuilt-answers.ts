import { randomBytes } from 'node:crypto';

/*
 * Answers the database built: a part of a GraphQL answer that a statement wrote as JSON text, complete
 * (response names in selection order, values as the schema serializes them). The executor (graphql-jit,
 * patched: patches/graphql-jit+0.8.9.patch) puts it into the result as it is, and `stringifyAnswer`
 * splices its text into the response, so none of it becomes JavaScript objects on the way. Only a
 * request that graphql-jit executes gets such parts (graphql-js would walk them as objects).
 */

/** The mark graphql-jit's patched runtime looks for on a composite value (`jitRuntime.prebuilt`). */
const PREBUILT = Symbol.for('graphql-jit.prebuilt');

/** The texts of the prebuilt parts of the answer being stringified, when it is. */
let splicing: { nonce: string; texts: string[] } | null = null;

class PrebuiltJson {
  constructor(
    readonly text: string,
    /** Written without the null fields that REST leaves out (see `leaveOutNullsIn`). */
    readonly nullsLeftOut: boolean,
  ) {}

  /** In `stringifyAnswer`, a token its text replaces; anywhere else (another serializer), the value itself. */
  toJSON(): unknown {
    if (!splicing) return JSON.parse(this.text);
    splicing.texts.push(this.text);
    return `\u0000${splicing.nonce}:${splicing.texts.length - 1}`;
  }
}
Object.defineProperty(PrebuiltJson.prototype, PREBUILT, { value: true });

/**
 * A part of the answer as the JSON text `text`, standing for the value of type T that it is;
 * `nullsLeftOut` when the database left out the null fields that REST leaves out.
 */
export const prebuilt = <T>(text: string, nullsLeftOut = false): T => new PrebuiltJson(text, nullsLeftOut) as unknown as T;

/** True for a prebuilt part written without the null fields that REST leaves out. */
export const builtWithoutNulls = (value: unknown): boolean => value instanceof PrebuiltJson && value.nullsLeftOut;

/** The value a prebuilt part stands for, parsed; any other value as it is. */
export const materialized = (value: unknown): unknown => (value instanceof PrebuiltJson ? JSON.parse(value.text) : value);

const executedByJit = new WeakSet<object>();

/** Marks a request's context as executed by graphql-jit, whose answers may hold prebuilt parts. */
export const allowPrebuiltAnswers = (context: object): void => void executedByJit.add(context);

/** True when the request's answer may hold prebuilt parts. */
export const prebuiltAnswersAllowed = (context: object): boolean => executedByJit.has(context);

const leavingOutNulls = new WeakSet<object>();

/**
 * Marks a request's context as one whose answer leaves out null fields but those that keep them (REST,
 * rest-facade/answer-shape.ts): the database then writes its parts without them, so that they need no
 * parsing to leave them out.
 */
export const leaveOutNullsIn = (context: object): void => void leavingOutNulls.add(context);

/** True when the request's answer leaves out null fields (see `leaveOutNullsIn`). */
export const nullsLeftOutIn = (context: object): boolean => leavingOutNulls.has(context);

/**
 * The JSON of a GraphQL answer, prebuilt parts spliced in as their text. A token is a string with a NUL and a fresh random nonce, which no value can
 * forge.
 */
export function stringifyAnswer(value: unknown): string {
  const state = { nonce: randomBytes(8).toString('hex'), texts: [] as string[] };
  splicing = state;
  let json: string;
  try {
    json = JSON.stringify(value);
  } finally {
    splicing = null;
  }
  if (state.texts.length) json = json.replace(new RegExp(`"\\\\u0000${state.nonce}:(\\d+)"`, 'g'), (_, i: string) => state.texts[Number(i)]);
  return json;
}
