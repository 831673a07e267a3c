import type { FieldError } from '@esign/contracts';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Paths in the same notation as decode failures: `fields[2].name`, `render_data["two words"]`. */
export const at = (parent: string, index: number): string => `${parent}[${index}]`;

export const member = (parent: string, key: string): string =>
  IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;

export const fieldError = (path: string, message: string): FieldError => ({ path, message });

export type { FieldError };
