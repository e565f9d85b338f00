// The distributors themselves: head offices (the tenants) with a branch each, their
// supervisors, representatives (ceilings and commission rates) and price lists.

import { CATALOG } from './catalog-words.ts';
import type { CopyValue } from './copy.ts';
import { address, cnpj, person, personalEmail, phone, slug } from './identity.ts';
import { CITIES_NORTHEAST, CITIES_SOUTHEAST, type City } from './names.ts';
import { Rng } from './prng.ts';
import type { ScaleSpec } from './scales.ts';

interface TenantWords {
  razaoSocial: string;
  nomeFantasia: string;
  domain: string;
  cities: readonly City[];
  street: string;
  branchCity: number;
}

const TENANTS: readonly TenantWords[] = [
  {
    razaoSocial: 'Distribuidora Irmãos Gonçalves Ltda',
    nomeFantasia: 'Irmãos Gonçalves',
    domain: 'irmaosgoncalves.com.br',
    cities: CITIES_SOUTHEAST,
    street: 'Rua Barão de Itapetininga',
    branchCity: 5,
  },
  {
    razaoSocial: 'Atacadista São João do Nordeste S.A.',
    nomeFantasia: 'Atacadão São João',
    domain: 'saojoaonordeste.com.br',
    cities: CITIES_NORTHEAST,
    street: 'Avenida Conde da Boa Vista',
    branchCity: 5,
  },
];

const PAUTAS = [
  { descricao: 'Tabela Padrão', factor: 1 },
  { descricao: 'Tabela Atacado', factor: 0.96 },
  { descricao: 'Tabela Varejo', factor: 1.04 },
  { descricao: 'Tabela Redes e Supermercados', factor: 0.93 },
  { descricao: 'Tabela Interior', factor: 1.02 },
] as const;

/**
 * The payment terms every tenant offers (condicoes_pagamento), by id; the last one is
 * inactive, so that Campo is seen to leave it out. Client defaults and restrictions are in
 * clients.ts (clientTerm).
 */
export const PAYMENT_TERMS = [
  { id: 1, descricao: 'À vista', dias: 0, ativo: true },
  { id: 2, descricao: '28 dias', dias: 28, ativo: true },
  { id: 3, descricao: '28/35/42 dias', dias: 35, ativo: true },
  { id: 4, descricao: '30/60/90 dias', dias: 60, ativo: true },
  { id: 5, descricao: '7/14/21 dias', dias: 14, ativo: true },
  { id: 6, descricao: 'Cheque pré 60 dias', dias: 60, ativo: false },
] as const;

export function paymentTermRows(tenant: Tenant): CopyValue[][] {
  return PAYMENT_TERMS.map((t) => [tenant.id, t.id, t.descricao, t.dias, t.ativo ? 'S' : 'N']);
}

export interface Pauta {
  id: number;
  descricao: string;
  /** Price level relative to the standard list. */
  factor: number;
}

export interface Rep {
  cod: number;
  supervisor: number;
  active: boolean;
  /** Default discount ceiling in percent; null when the ERP has none set. */
  percDescMax: number | null;
  /** Ceiling per product category (vendedores_desc_categoria). */
  ceilings: Map<string, number>;
  row: CopyValue[];
}

export interface Tenant {
  /** id_empresa of the head office. */
  id: number;
  branchId: number;
  cities: readonly City[];
  domain: string;
  empresas: CopyValue[][];
  supervisors: CopyValue[][];
  reps: Rep[];
  pautas: Pauta[];
  /** Representatives that carry a portfolio. */
  activeReps: Rep[];
}

const CEILINGS = [3, 5, 5, 7, 8, 10, 12, 15] as const;

export function buildTenants(spec: ScaleSpec, seed: number): Tenant[] {
  if (spec.tenants > TENANTS.length) throw new RangeError(`at most ${TENANTS.length} tenants are described`);
  const tenants: Tenant[] = [];
  for (let t = 0; t < spec.tenants; t++) {
    const words = TENANTS[t] as TenantWords;
    const rng = Rng.derive(seed, 'tenant', t);
    const id = t + 1;
    const branchId = spec.tenants + t + 1;
    const home = words.cities[0] as City;
    const branchCity = words.cities[words.branchCity] as City;
    const root = rng.int(10_000_000, 99_999_999);
    const empresa = (empresaId: number, matriz: number | null, city: City, branch: number): CopyValue[] => {
      const a = address(rng, city);
      const suffix = matriz === null ? '' : ` - Filial ${city.name}`;
      return [
        empresaId,
        matriz,
        `${words.razaoSocial}${suffix}`,
        `${words.nomeFantasia}${matriz === null ? '' : ` ${city.name}`}`.slice(0, 60),
        cnpj(root, 0, branch),
        rng.digits(12),
        `${matriz === null ? words.street : a.endereco}, ${a.numero}`,
        city.name,
        city.uf,
        a.cep,
        phone(rng, city.ddd, false),
        'S',
      ];
    };

    const supervisors: CopyValue[][] = [];
    for (let s = 1; s <= spec.supervisorsPerTenant; s++) {
      const p = person(rng);
      supervisors.push([id, s, p.full, `${slug(p.first)}.${slug(p.last)}@${words.domain}`, 'S']);
    }

    const reps: Rep[] = [];
    let cod = 0;
    const addRep = (supervisor: number, active: boolean) => {
      cod++;
      const p = person(rng);
      const percDescMax = rng.chance(0.25) ? null : rng.pick(CEILINGS);
      const ceilings = new Map<string, number>();
      const categories = rng.shuffle(CATALOG.map((g) => g.categoria)).slice(0, rng.int(0, 3));
      for (const categoria of categories) ceilings.set(categoria, rng.pick(CEILINGS));
      const rep: Rep = {
        cod,
        supervisor,
        active,
        percDescMax,
        ceilings,
        row: [
          id,
          cod,
          p.full,
          rng.chance(0.85) ? `${slug(p.first)}.${slug(p.last)}@${words.domain}` : personalEmail(rng, p),
          phone(rng, home.ddd, true),
          supervisor,
          percDescMax,
          (rng.int(4, 10) / 2).toFixed(2),
          (rng.int(2, 8) * 5).toFixed(2),
          active ? 'S' : 'N',
        ],
      };
      reps.push(rep);
    };
    for (let s = 1; s <= spec.supervisorsPerTenant; s++) {
      for (let r = 0; r < spec.repsPerSupervisor; r++) addRep(s, true);
    }
    for (let r = 0; r < spec.inactiveRepsPerTenant; r++) addRep(rng.int(1, spec.supervisorsPerTenant), false);

    tenants.push({
      id,
      branchId,
      cities: words.cities,
      domain: words.domain,
      empresas: [empresa(id, null, home, 1), empresa(branchId, id, branchCity, 2)],
      supervisors,
      reps,
      activeReps: reps.filter((r) => r.active),
      pautas: PAUTAS.slice(0, spec.pautasPerTenant).map((p, i) => ({ id: i + 1, ...p })),
    });
  }
  return tenants;
}

export function repCeilingRows(tenant: Tenant): CopyValue[][] {
  return tenant.reps.flatMap((rep) =>
    [...rep.ceilings].map(([categoria, perc]): CopyValue[] => [tenant.id, rep.cod, categoria, perc.toFixed(2)]),
  );
}

export function pautaRows(tenant: Tenant): CopyValue[][] {
  return tenant.pautas.map((p) => [tenant.id, p.id, p.descricao, 'S']);
}
