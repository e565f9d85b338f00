// A date typed as dd/mm/aaaa in every browser. `<input type="date">` draws its placeholder and
// order in the browser's language (mm/dd/yyyy in an English Chromium), which a Brazilian
// manager reads wrong; a text box with a mask says the same thing everywhere. The value the
// form sees is ISO (YYYY-MM-DD) once the date is complete and real, '' when empty, and the
// typed text otherwise, so the form's own validation can refuse it (`dateProblem` says why).
//
// Besides digits typed one by one, the box takes a whole date pasted in the forms people copy
// from elsewhere: ISO (2027-01-27, also with a time after it, from a system or spreadsheet), and
// dd/mm/aaaa with '/', '.' or '-' between the parts, one-digit day and month allowed (1.2.2027).
// A two-digit year (27/01/27) means 20aa: it is completed when pasted or when the box loses
// focus, never while typing (the "20" of "2027" would otherwise already read as 2020).
import { useEffect, useRef, useState } from 'preact/hooks';

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

const pad2 = (n: string) => n.padStart(2, '0');

/**
 * The box's text after an input: a pasted ISO or dotted date as dd/mm/aaaa, else the digits
 * masked. `complete` (a paste, leaving the box) also turns a two-digit year into 20aa.
 */
export function normalizeDateText(raw: string, complete: boolean): string {
  const text = raw.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(text);
  if (iso) return `${pad2(iso[3] as string)}/${pad2(iso[2] as string)}/${iso[1]}`;
  const br = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})$/.exec(text);
  if (br) {
    const [, dd, mm, year] = br as unknown as [string, string, string, string];
    return `${pad2(dd)}/${pad2(mm)}/${complete && year.length === 2 ? `20${year}` : year}`;
  }
  return maskBr(text);
}

const MONTH_NAMES = Array.from({ length: 12 }, (_, i) =>
  new Intl.DateTimeFormat('pt-BR', { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, i, 1))),
);

const USE = 'use dd/mm/aaaa, como 15/12/2026';

/** Why a date field's value is not a date, in pt-BR; null when it is '' or a real date. */
export function dateProblem(value: string): string | null {
  if (value === '') return null;
  const text = isIsoDate(value) ? brOfIso(value) : value;
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (!m) return `Data incompleta: ${USE}.`;
  const [, dd, mm, yyyy] = m as unknown as [string, string, string, string];
  const [day, month, year] = [Number(dd), Number(mm), Number(yyyy)];
  if (month < 1 || month > 12) return `O mês ${mm} não existe: ${USE}.`;
  if (year < 1900) return `O ano ${yyyy} está fora do calendário: ${USE}.`;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > last) {
    return `O dia ${dd} não existe em ${MONTH_NAMES[month - 1]} de ${yyyy}, que vai até o dia ${last}.`;
  }
  return null;
}

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
  const input = useRef<HTMLInputElement>(null);
  // A value set from outside (a rule loaded for editing, a reset) replaces what is shown. A form
  // that lets the browser validate (no noValidate) is stopped with dateProblem's words.
  useEffect(() => {
    if (value !== (isoOfBr(text) ?? (text === '' ? '' : text))) setText(brOfIso(value));
    input.current?.setCustomValidity(dateProblem(value) ?? '');
  }, [value]);
  const accept = (box: HTMLInputElement, shown: string) => {
    box.value = shown;
    setText(shown);
    onChange(shown === '' ? '' : (isoOfBr(shown) ?? shown));
  };
  return (
    <input
      {...rest}
      ref={input}
      type="text"
      inputMode="numeric"
      placeholder="dd/mm/aaaa"
      autoComplete="off"
      value={text}
      onInput={(e) => {
        const pasted = (e as unknown as InputEvent).inputType === 'insertFromPaste';
        accept(e.currentTarget, normalizeDateText(e.currentTarget.value, pasted));
      }}
      onBlur={(e) => {
        const full = normalizeDateText(e.currentTarget.value, true);
        if (full !== e.currentTarget.value) accept(e.currentTarget, full);
      }}
    />
  );
}
