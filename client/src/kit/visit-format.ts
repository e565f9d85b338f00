// How the supervisor's visit screens (Visitas, and the route cards on Início) say numbers, times
// and places in pt-BR. Pure, so the unit test pins the wording the screens and their tests rely on.
import { formatPercent } from '@campo/shared/format';

const clock = new Intl.DateTimeFormat('pt-BR', {
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'America/Sao_Paulo',
});
const oneDecimal = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const coordinate = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 5, maximumFractionDigits: 5 });

/** An instant as São Paulo's wall clock, "08:05": the day the supervisor reads is São Paulo's. */
export const clockTime = (iso: string): string => clock.format(new Date(iso));

/** Minutes as people say them: "45 min", "1 h", "2 h 05 min". */
export function minutesText(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  const rest = m % 60;
  return rest === 0 ? `${h} h` : `${h} h ${String(rest).padStart(2, '0')} min`;
}

/** Metres as a short length: "250 m", "1,2 km" (a kilometre and above with one decimal). */
export function lengthText(meters: number): string {
  return meters < 1000 ? `${Math.round(meters)} m` : `${oneDecimal.format(meters / 1000)} km`;
}

/** Where the check-in was against the client: "a 1,2 km do cliente". */
export const distanceText = (meters: number): string => `a ${lengthText(meters)} do cliente`;

/** The threshold of a far visit, as the column heading shows it: "> 300 m". */
export const farThresholdText = (meters: number): string => `> ${lengthText(meters)}`;

/** A share with its count: "5/8 (63%)"; "sem roteiro" when nothing was planned. */
export function shareText(part: number, whole: number, none = 'sem roteiro'): string {
  if (whole <= 0) return none;
  return `${part}/${whole} (${formatPercent(Math.round((part / whole) * 100))})`;
}

/** The team card's line: "Roteiro: 5/8 · 3 com pedido". */
export function routeLine(s: { visitados: number; planejados: number; comPedido: number }): string {
  const route = s.planejados > 0 ? `Roteiro: ${s.visitados}/${s.planejados}` : 'Sem roteiro';
  return `${route} · ${s.comPedido} com pedido`;
}

/** A position for a person: "-23,55052, -46,63331 (precisão 12 m)". */
export function positionText(p: { latitude: number; longitude: number; precisao: number | null }): string {
  const at = `${coordinate.format(p.latitude)}, ${coordinate.format(p.longitude)}`;
  return p.precisao === null ? at : `${at} (precisão ${lengthText(p.precisao)})`;
}

export const WEEKDAYS = [
  { dia: 1, curto: 'Seg', nome: 'Segunda' },
  { dia: 2, curto: 'Ter', nome: 'Terça' },
  { dia: 3, curto: 'Qua', nome: 'Quarta' },
  { dia: 4, curto: 'Qui', nome: 'Quinta' },
  { dia: 5, curto: 'Sex', nome: 'Sexta' },
  { dia: 6, curto: 'Sáb', nome: 'Sábado' },
  { dia: 7, curto: 'Dom', nome: 'Domingo' },
] as const;

const brDay = (iso: string) => iso.split('-').reverse().join('/');

/** A client's visit days: "Seg, Qua · Sex a cada 2 semanas (desde 06/11/2026)"; "sem dias de visita". */
export function planText(
  dias: readonly { diaSemana: number; intervaloSemanas: number; dataBase: string | null }[],
): string {
  if (dias.length === 0) return 'sem dias de visita';
  const sorted = [...dias].sort((a, b) => a.diaSemana - b.diaSemana);
  const name = (d: number) => WEEKDAYS.find((w) => w.dia === d)?.curto ?? String(d);
  const weekly = sorted.filter((d) => d.intervaloSemanas <= 1).map((d) => name(d.diaSemana));
  const spaced = sorted
    .filter((d) => d.intervaloSemanas > 1)
    .map(
      (d) =>
        `${name(d.diaSemana)} a cada ${d.intervaloSemanas} semanas${d.dataBase ? ` (desde ${brDay(d.dataBase)})` : ''}`,
    );
  return [weekly.length ? `${weekly.join(', ')}${spaced.length ? '' : ' (toda semana)'}` : '', ...spaced]
    .filter(Boolean)
    .join(' · ');
}

/** A YYYY-MM-DD day moved by `days` (the day picker's previous and next). */
export function shiftDay(iso: string, days: number): string {
  const d = new Date(`${iso}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Positivation against visits, shaped like coverage: "2/3 (67%)"; "—" without visits. */
export function positivationText(ratio: number | null, visitedClients: number): string {
  if (ratio === null || visitedClients === 0) return '—';
  return shareText(Math.round(ratio * visitedClients), visitedClients);
}
