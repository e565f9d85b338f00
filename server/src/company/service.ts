// The company's own settings, kept by Campo per tenant: the logo printed on every
// representative's orders, the daily positivation target, and the money rules (credit policy
// and flex, docs/credit-and-flex.md). Only managers and admins change the first two, only
// managers the money rules (the routes check the role before the body is read).
import type { Company, MoneyRules } from '@campo/shared';
import { scopeOf } from '../auth/authorize.ts';
import { refreshCollectionLog } from '../changelog/changelog.ts';
import type { Db } from '../db/kysely.ts';
import { withScope } from '../db/scope.ts';
import type { AuthContext } from '../http/env.ts';
import { settingsCollection } from './collection.ts';
import { inspectLogo, toDataUrl } from './logo.ts';
import { clearLogo, upsertLogo, upsertMetaPositivacaoDia, upsertMoneyRules } from './queries.ts';
import { moneyRulesOf, readCompany } from './read.ts';

export { moneyRulesOf, readCompany };

export function getCompany(db: Db, auth: AuthContext): Promise<Company> {
  return withScope(db, scopeOf(auth), (tx) => readCompany(tx, auth.idEmpresa));
}

/** Checks the image (type by its bytes, dimensions, completeness) before anything is written. */
export async function setLogo(db: Db, auth: AuthContext, bytes: Uint8Array): Promise<Company> {
  const logo = await inspectLogo(bytes);
  const dataUrl = toDataUrl(logo.mime, bytes);
  return withScope(db, scopeOf(auth), async (tx) => {
    await upsertLogo(tx, auth.idEmpresa, dataUrl);
    await refreshCollectionLog(tx, auth.idEmpresa, settingsCollection);
    return readCompany(tx, auth.idEmpresa);
  });
}

/** Removing a logo that is not there is not an error: the result is the same. */
export function removeLogo(db: Db, auth: AuthContext): Promise<void> {
  return withScope(db, scopeOf(auth), async (tx) => {
    await clearLogo(tx, auth.idEmpresa);
    await refreshCollectionLog(tx, auth.idEmpresa, settingsCollection);
  });
}

export function setMetaPositivacaoDia(db: Db, auth: AuthContext, meta: number): Promise<number | null> {
  return withScope(db, scopeOf(auth), async (tx) => {
    const saved = await upsertMetaPositivacaoDia(tx, auth.idEmpresa, meta);
    await refreshCollectionLog(tx, auth.idEmpresa, settingsCollection);
    return saved;
  });
}

export function getMoneyRules(db: Db, auth: AuthContext): Promise<MoneyRules> {
  return withScope(db, scopeOf(auth), (tx) => moneyRulesOf(tx, auth.idEmpresa));
}

/** The devices hold the rules in the company document (ajustes 'empresa'), so it is refreshed too. */
export function setMoneyRules(db: Db, auth: AuthContext, rules: MoneyRules): Promise<MoneyRules> {
  return withScope(db, scopeOf(auth), async (tx) => {
    await upsertMoneyRules(tx, auth.idEmpresa, rules);
    await refreshCollectionLog(tx, auth.idEmpresa, settingsCollection);
    return moneyRulesOf(tx, auth.idEmpresa);
  });
}
