import type { FieldChange, PersonField } from '@lms/contract';
import { PERSON_FIELDS } from '@lms/contract';
import type { UserRecord } from '../users/repository.js';

/** A person's fields as people read them: department and role by name, empty as null. */
export type PersonFields = Record<PersonField, string | null>;

/** The fields of a user row (with its department's and role's names). */
export function personFieldsOf(user: UserRecord): PersonFields {
  return {
    last_name: user.last_name,
    first_name: user.first_name,
    email: user.email,
    department: user.department_name,
    position: user.position,
    role: user.role_name,
    manager: user.manager_email,
  };
}

/** What differs between two states of a person, field by field in the fields' order. */
export function fieldChanges(before: Partial<PersonFields>, after: Partial<PersonFields>): FieldChange[] {
  const out: FieldChange[] = [];
  for (const field of PERSON_FIELDS) {
    const [from, to] = [before[field] ?? null, after[field] ?? null];
    if (from !== to) out.push({ field, before: from, after: to });
  }
  return out;
}
