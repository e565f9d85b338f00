// What each --scale holds. docs/erp-fixture.md lists the row counts these give.

export type FixtureScale = 'tiny' | 'small' | 'medium' | 'large';

export const FIXTURE_SCALES: readonly FixtureScale[] = ['tiny', 'small', 'medium', 'large'];

export interface ScaleSpec {
  /** Head offices; each also gets one branch. */
  tenants: number;
  supervisorsPerTenant: number;
  repsPerSupervisor: number;
  /** Former representatives kept as inactive (ativo 'N'), with no portfolio. */
  inactiveRepsPerTenant: number;
  clientsPerRep: number;
  suppliersPerTenant: number;
  productsPerTenant: number;
  pautasPerTenant: number;
  /** Length of the order history, ending on the as-of date. */
  historyDays: number;
  /** Mean orders per month of a client that buys regularly (each client's own rate varies around it). */
  ordersPerClientMonth: number;
  /** Lines per order, inclusive range. */
  itemsPerOrder: readonly [number, number];
}

export const SCALES: Readonly<Record<FixtureScale, ScaleSpec>> = {
  tiny: {
    tenants: 2,
    supervisorsPerTenant: 2,
    repsPerSupervisor: 2,
    inactiveRepsPerTenant: 0,
    clientsPerRep: 10,
    suppliersPerTenant: 3,
    productsPerTenant: 60,
    pautasPerTenant: 2,
    historyDays: 120,
    ordersPerClientMonth: 2,
    itemsPerOrder: [1, 6],
  },
  small: {
    tenants: 2,
    supervisorsPerTenant: 3,
    repsPerSupervisor: 3,
    inactiveRepsPerTenant: 1,
    clientsPerRep: 150,
    suppliersPerTenant: 40,
    productsPerTenant: 2000,
    pautasPerTenant: 4,
    historyDays: 365,
    ordersPerClientMonth: 1.5,
    itemsPerOrder: [2, 12],
  },
  medium: {
    tenants: 2,
    supervisorsPerTenant: 2,
    repsPerSupervisor: 2,
    inactiveRepsPerTenant: 1,
    clientsPerRep: 2000,
    suppliersPerTenant: 150,
    productsPerTenant: 20000,
    pautasPerTenant: 5,
    historyDays: 730,
    ordersPerClientMonth: 0.5,
    itemsPerOrder: [2, 12],
  },
  large: {
    tenants: 2,
    supervisorsPerTenant: 4,
    repsPerSupervisor: 5,
    inactiveRepsPerTenant: 2,
    clientsPerRep: 400,
    suppliersPerTenant: 200,
    productsPerTenant: 30000,
    pautasPerTenant: 5,
    historyDays: 1095,
    ordersPerClientMonth: 1,
    itemsPerOrder: [3, 15],
  },
};
