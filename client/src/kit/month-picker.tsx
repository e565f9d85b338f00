// A month chosen with two selects (month by its pt-BR name, and year), since `type="month"`
// does not exist in desktop Safari (it degrades to a bare text box) and Chromium draws it in
// the browser's language, not the page's.

const MONTHS = Array.from({ length: 12 }, (_, i) =>
  new Intl.DateTimeFormat('pt-BR', { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, i, 1))),
);

/** `value` and `onChange` speak YYYY-MM; the years offered surround the chosen one. */
export function MonthPicker(props: { value: string; onChange: (mes: string) => void; label?: string }) {
  const [y, m] = props.value.split('-').map(Number) as [number, number];
  const years = Array.from({ length: 7 }, (_, i) => y - 4 + i);
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    <fieldset class="month-picker">
      <legend>{props.label ?? 'Mês'}</legend>
      <select
        aria-label="Mês do ano"
        value={String(m)}
        onChange={(e) => props.onChange(`${y}-${pad(Number(e.currentTarget.value))}`)}
      >
        {MONTHS.map((name, i) => (
          <option key={name} value={String(i + 1)}>
            {name}
          </option>
        ))}
      </select>
      <select aria-label="Ano" value={String(y)} onChange={(e) => props.onChange(`${e.currentTarget.value}-${pad(m)}`)}>
        {years.map((year) => (
          <option key={year} value={String(year)}>
            {year}
          </option>
        ))}
      </select>
    </fieldset>
  );
}
