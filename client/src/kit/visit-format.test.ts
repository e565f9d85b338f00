import { describe, expect, it } from 'vitest';
import {
  clockTime,
  distanceText,
  farThresholdText,
  minutesText,
  planText,
  positionText,
  positivationText,
  routeLine,
  shareText,
  shiftDay,
} from './visit-format.ts';

describe("the supervisor's visit wording", () => {
  it('says check-in times on São Paulo’s clock, whatever the offset sent', () => {
    expect(clockTime('2026-11-27T11:05:00Z')).toBe('08:05');
    expect(clockTime('2026-11-27T08:05:00-03:00')).toBe('08:05');
  });

  it('says time in visits in hours and minutes', () => {
    expect(minutesText(0)).toBe('0 min');
    expect(minutesText(45)).toBe('45 min');
    expect(minutesText(60)).toBe('1 h');
    expect(minutesText(125)).toBe('2 h 05 min');
  });

  it('says distances in metres below a kilometre, else in km with a comma', () => {
    expect(distanceText(40)).toBe('a 40 m do cliente');
    expect(distanceText(999)).toBe('a 999 m do cliente');
    expect(distanceText(1234)).toBe('a 1,2 km do cliente');
    expect(farThresholdText(300)).toBe('> 300 m');
    expect(farThresholdText(1500)).toBe('> 1,5 km');
  });

  it('gives coverage with its count, and no route as such', () => {
    expect(shareText(5, 8)).toBe('5/8 (63%)');
    expect(shareText(0, 0)).toBe('sem roteiro');
    expect(routeLine({ visitados: 5, planejados: 8, comPedido: 3 })).toBe('Roteiro: 5/8 · 3 com pedido');
    expect(routeLine({ visitados: 0, planejados: 0, comPedido: 1 })).toBe('Sem roteiro · 1 com pedido');
  });

  it('gives positivation against visits with the clients behind it', () => {
    expect(positivationText(0.667, 3)).toBe('2/3 (67%)');
    expect(positivationText(1, 1)).toBe('1/1 (100%)');
    expect(positivationText(null, 0)).toBe('—');
  });

  it('says a position with its accuracy, Brazilian decimals', () => {
    expect(positionText({ latitude: -23.550521, longitude: -46.633308, precisao: 12 })).toBe(
      '-23,55052, -46,63331 (precisão 12 m)',
    );
    expect(positionText({ latitude: -23.5, longitude: -46.6, precisao: null })).toBe('-23,50000, -46,60000');
  });

  it('says visit days by weekday, the spaced ones with their interval and base day', () => {
    expect(planText([])).toBe('sem dias de visita');
    expect(
      planText([
        { diaSemana: 3, intervaloSemanas: 1, dataBase: null },
        { diaSemana: 1, intervaloSemanas: 1, dataBase: null },
      ]),
    ).toBe('Seg, Qua (toda semana)');
    expect(
      planText([
        { diaSemana: 1, intervaloSemanas: 1, dataBase: null },
        { diaSemana: 5, intervaloSemanas: 2, dataBase: '2026-11-06' },
      ]),
    ).toBe('Seg · Sex a cada 2 semanas (desde 06/11/2026)');
  });

  it('moves the day picker across months and years', () => {
    expect(shiftDay('2026-11-30', 1)).toBe('2026-12-01');
    expect(shiftDay('2027-01-01', -1)).toBe('2026-12-31');
  });
});
