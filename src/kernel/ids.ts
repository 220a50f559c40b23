import { customAlphabet } from 'nanoid';

const alphanumeric = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Opaque resource identifiers: 20 alphanumeric characters (~119 bits), safe in paths. */
export const newId = customAlphabet(alphanumeric, 20);
