import { useState, type ChangeEvent, type FormEvent } from 'react';

/** What became of a submitted name: close the dialog, or keep it open with a message under the field. */
export interface NameOutcome {
  close: boolean;
  fieldError?: string;
}

export interface NameForm {
  /** The props of the name field: its value, its message, and typing (which clears the message). */
  field: {
    value: string;
    error: string | null;
    onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  };
  busy: boolean;
  /** The form's submit handler. */
  onSubmit: (event: FormEvent) => void;
}

/**
 * The form of a dialog that names something new (a course, category, module or lesson): an empty
 * name shows `emptyMessage` under the field and nothing is sent; while `submit` runs the dialog is
 * busy; its outcome closes the dialog or puts the server's message under the field.
 */
export function useNameForm(
  initialName: string,
  emptyMessage: string,
  submit: (name: string) => Promise<NameOutcome>,
  onClose: () => void,
): NameForm {
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async () => {
    if (busy) return;
    const trimmed = name.trim();
    if (trimmed === '') {
      setError(emptyMessage);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const outcome = await submit(trimmed);
      if (outcome.fieldError) setError(outcome.fieldError);
      if (outcome.close) onClose();
    } finally {
      setBusy(false);
    }
  };

  return {
    field: {
      value: name,
      error,
      onChange: (event) => {
        setName(event.currentTarget.value);
        if (error) setError(null);
      },
    },
    busy,
    onSubmit: (event) => {
      event.preventDefault();
      void send();
    },
  };
}
