import { describe, expect, it } from 'vitest';
import { accessTo, homeFor, navFor } from './routes.ts';

describe('routes by role', () => {
  it('gives each role the bottom nav the product defines', () => {
    expect(navFor('representative').map((r) => r.label)).toEqual([
      'Início',
      'Clientes',
      'Catálogo',
      'Pedidos',
      'Funil',
      'SAC',
    ]);
    expect(navFor('supervisor').map((r) => r.label)).toEqual(['Início', 'Aprovações', 'Equipe', 'Visitas']);
    expect(navFor('manager').map((r) => r.label)).toEqual(['Início', 'Visitas', 'Regras', 'Metas', 'Empresa', 'SAC']);
    expect(navFor('admin').map((r) => r.label)).toEqual(['Usuários']);
  });

  it('refuses a screen the role has no nav entry for, deep links included', () => {
    expect(accessTo('/regras', 'representative').kind).toBe('forbidden');
    expect(accessTo('/pedidos/4321', 'representative').kind).toBe('allowed');
    expect(accessTo('/pedidos/4321', 'supervisor').kind).toBe('forbidden');
    expect(accessTo('/', 'admin').kind).toBe('forbidden');
    expect(accessTo('/nada', 'manager').kind).toBe('unknown');
  });

  it('opens the sync screen to every role with a local store, outside the nav bar', () => {
    for (const role of ['representative', 'supervisor', 'manager'] as const) {
      expect(accessTo('/sincronizacao', role).kind, role).toBe('allowed');
      expect(
        navFor(role).map((r) => r.path),
        role,
      ).not.toContain('/sincronizacao');
    }
    expect(accessTo('/sincronizacao', 'admin').kind).toBe('forbidden');
  });

  it('lands each role on its first screen', () => {
    expect(homeFor('representative')).toBe('/');
    expect(homeFor('admin')).toBe('/usuarios');
  });
});
