import { isEmail, type CreateRequestBody } from '@esign/contracts';
import { checkDefaultValue, type TemplateField, type TemplateSpec } from './contract-template.js';
import { at, fieldError, type FieldError } from './paths.js';
import type { RequestField, RequestSigner } from './signature-request.js';

/**
 * The fields of a Request are every field of its contracts (one per name: a name on two
 * contracts is one field, filled once). The body pre-fills and assigns some of them.
 *
 * `assigned_to` names a signer by signer_id. When it matches no signer_id but is the
 * e-mail address of exactly one signer, that signer gets this field and every field
 * left without an explicit assignment ("remaining fields", see ADR 0201): an explicit
 * assignment is never overridden, and the result does not depend on the order of the
 * entries.
 */
export const checkFields = (
  entries: CreateRequestBody['fields'],
  contracts: readonly TemplateSpec[],
  signers: readonly RequestSigner[],
  errors: FieldError[],
): RequestField[] => {
  const definitions = new Map<string, TemplateField[]>();
  for (const template of contracts) {
    for (const field of template.fields) {
      const list = definitions.get(field.name);
      if (list === undefined) definitions.set(field.name, [field]);
      else list.push(field);
    }
  }
  const explicit = new Map<string, string>();
  const defaults = new Map<string, string | boolean>();
  const bySignerId = new Set(signers.map((s) => s.signerId));
  let takesRemaining: { signerId: string; index: number } | undefined;
  const seen = new Map<string, number>();

  (entries ?? []).forEach((entry, i) => {
    const path = at('fields', i);
    const first = seen.get(entry.name);
    if (first !== undefined) {
      errors.push(fieldError(`${path}.name`, `duplicates fields[${first}].name "${entry.name}"`));
      return;
    }
    seen.set(entry.name, i);
    const defs = definitions.get(entry.name);
    if (defs === undefined) {
      errors.push(fieldError(`${path}.name`, `no field "${entry.name}" on the contracts of this Request`));
      return;
    }
    if (entry.default_value !== undefined) {
      const complaint = defs
        .map((d) => checkDefaultValue(d, entry.default_value!))
        .find((m) => m !== undefined);
      if (complaint !== undefined) errors.push(fieldError(`${path}.default_value`, complaint));
      else defaults.set(entry.name, entry.default_value);
    }
    const target = entry.assigned_to;
    if (target === undefined) return;
    if (bySignerId.has(target)) {
      explicit.set(entry.name, target);
      return;
    }
    if (!isEmail(target.trim())) {
      errors.push(fieldError(`${path}.assigned_to`, `no signer of this Request has signer_id "${target}"`));
      return;
    }
    const email = target.trim().toLowerCase();
    const owners = signers.filter((s) => s.contact.email === email);
    if (owners.length === 0) {
      errors.push(
        fieldError(`${path}.assigned_to`, `no signer of this Request has signer_id or e-mail "${target}"`),
      );
    } else if (owners.length > 1) {
      errors.push(
        fieldError(
          `${path}.assigned_to`,
          `e-mail "${target}" belongs to several signers (${owners.map((o) => `"${o.signerId}"`).join(', ')}): assign by signer_id`,
        ),
      );
    } else {
      const owner = owners[0]!;
      explicit.set(entry.name, owner.signerId);
      if (takesRemaining !== undefined && takesRemaining.signerId !== owner.signerId) {
        errors.push(
          fieldError(
            `${path}.assigned_to`,
            `only one signer can take the remaining fields by e-mail, and fields[${takesRemaining.index}].assigned_to already gives them to "${takesRemaining.signerId}": assign by signer_id`,
          ),
        );
      } else {
        takesRemaining ??= { signerId: owner.signerId, index: i };
      }
    }
  });

  return [...definitions.keys()].map((name) => ({
    name,
    defaultValue: defaults.get(name) ?? null,
    assignedTo: explicit.get(name) ?? takesRemaining?.signerId ?? null,
  }));
};
