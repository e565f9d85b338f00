// A date typed as dd/mm/aaaa in every browser. `<input type="date">` draws its placeholder and
// order in the browser's language (mm/dd/yyyy in an English Chromium), which a Brazilian
// manager reads wrong; a text box with a mask says the same thing everywhere. The value the
// form sees is ISO (YYYY-MM-DD) once the date is complete and real, '' when empty, and the
// typed text otherwise, so the form's own validation can refuse it.
import { useEffect, useState } from 'preact/hooks';

/** Digits only, with the slashes put in as one types: "1512" → "15/12". */
export function maskBr(text: string): string {
  const d = text.replace(/\D/g, '').slice(0, 8);
  return [d.slice(0, 2), d.slice(2, 4), d.slice(4)].filter(Boolean).join('/');
}

/** "15/12/2026" → "2026-12-15"; null unless the date exists (no 31/02). */
export function isoOfBr(text: string): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (!m) return null;
  const [, dd, mm, yyyy] = m as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(yyyy), Number(mm) - 1, Number(dd)));
  const iso = `${yyyy}-${mm}-${dd}`;
  return Number(yyyy) >= 1900 && date.toISOString().slice(0, 10) === iso ? iso : null;
}

/** "2026-12-15" → "15/12/2026"; anything else as it is. */
export function brOfIso(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : value;
}

export const isIsoDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

interface Props {
  value: string;
  onChange: (value: string) => void;
  /** For the label's `for`. */
  id: string;
  name?: string;
  required?: boolean;
  'aria-invalid'?: 'true' | 'false' | boolean | undefined;
  'aria-describedby'?: string | undefined;
}

export function DateField({ value, onChange, ...rest }: Props) {
  const [text, setText] = useState(() => brOfIso(value));
  // A value set from outside (a rule loaded for editing, a reset) replaces what is shown.
  useEffect(() => {
    if (value !== (isoOfBr(text) ?? (text === '' ? '' : text))) setText(brOfIso(value));
  }, [value]);
  return (
    <input
      {...rest}
      type="text"
      inputMode="numeric"
      placeholder="dd/mm/aaaa"
      maxLength={10}
      autoComplete="off"
      value={text}
      onInput={(e) => {
        const masked = maskBr(e.currentTarget.value);
        e.currentTarget.value = masked;
        setText(masked);
        onChange(masked === '' ? '' : (isoOfBr(masked) ?? masked));
      }}
    />
  );
}
