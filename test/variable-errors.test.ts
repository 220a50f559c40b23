/** GraphQL's variable-coercion messages echo the values given; both doors rebuild them without. */
import { describe, expect, it } from 'vitest';
import { restMessage } from '../rest-facade/router.js';
import { parseVariableError, variableErrorMessage } from '../src/graphql/variable-errors.js';

const secretInput = '{ script: "run(); Then(); more", secrets: { KEY: "s3cr3t; Value" } }';

describe('variable errors', () => {
  it('splits a message whose echoed value itself holds "; " sentences', () => {
    const message = `Variable "$input" got invalid value ${secretInput}; Field "title" of required type "String!" was not provided.`;
    expect(parseVariableError(message)).toEqual({ variable: 'input', path: null, detail: 'Field "title" of required type "String!" was not provided.' });
    expect(restMessage(message)).toBe('title: is required');
    expect(variableErrorMessage(message)).toBe('Variable "$input": Field "title" of required type "String!" was not provided.');
    expect(variableErrorMessage(message)).not.toContain('s3cr3t');
  });

  it('keeps the path of a nested value', () => {
    const message = 'Variable "$input" got invalid value "xx" at "input.languages[0]"; Value "xx" does not exist in "TranslationLanguage" enum.';
    expect(restMessage(message)).toBe('languages[0]: Value "xx" does not exist in "TranslationLanguage" enum.');
    expect(variableErrorMessage(message)).toBe('Variable "$input" at "input.languages[0]": Value "xx" does not exist in "TranslationLanguage" enum.');
  });

  it('leaves other messages alone', () => {
    expect(parseVariableError('Cannot query field "x" on type "Query".')).toBeNull();
    expect(variableErrorMessage('Syntax Error: Unexpected Name "x".')).toBe('Syntax Error: Unexpected Name "x".');
  });
});
