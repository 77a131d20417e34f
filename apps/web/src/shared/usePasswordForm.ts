import { useState } from 'react';
import { toastError } from './toast';

/** A check before sending that failed: its message and the fields to mark. */
export interface FormProblem<Field extends string> {
  message: string;
  fields: readonly Field[];
}

export interface PasswordFormState<Field extends string> {
  form: Record<Field, string>;
  /** The props of one field's `SecretInput`: its value, whether it is marked, and typing. */
  field: (name: Field) => { value: string; invalid: boolean; onChange: (value: string) => void };
  /**
   * Applies the client's checks: on a problem the fields are marked, the message is a toast (one
   * at a time under `toastId`) and false is returned; otherwise the marks go and true is returned.
   */
  passes: (problem: FormProblem<Field> | null) => boolean;
  reset: () => void;
}

/**
 * A password form (the profile's password change, the own password after a mailed one): the values,
 * the fields a failed check marked (a mark goes as soon as its field is typed in) and the check itself.
 */
export function usePasswordForm<Field extends string>(
  empty: Record<Field, string>,
  toastId: string,
): PasswordFormState<Field> {
  const [form, setForm] = useState(empty);
  const [invalid, setInvalid] = useState<readonly Field[]>([]);

  const field = (name: Field) => ({
    value: form[name],
    invalid: invalid.includes(name),
    onChange: (value: string) => {
      setForm((old) => ({ ...old, [name]: value }));
      if (invalid.includes(name)) setInvalid((old) => old.filter((f) => f !== name));
    },
  });

  const passes = (problem: FormProblem<Field> | null) => {
    if (problem) {
      setInvalid(problem.fields);
      toastError(problem.message, toastId);
      return false;
    }
    setInvalid([]);
    return true;
  };

  return { form, field, passes, reset: () => setForm(empty) };
}
