// The ERP's side of a field day, as the fixture ERPs keep it, for the demo: a client's visit
// days and its coordinates. It writes the ERP's own tables, one implementation per ERP profile
// (as invoicing.ts), never Campo's: Campo reads both through app.dias_visita_erp and
// app.posicao_clientes_erp.
import type { VisitDay } from '@campo/shared';
import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import { isOdooErp } from './invoicing.ts';

/** The ERP keeps these visit days for the client, in place of whatever it kept. */
export async function setErpVisitDays(
  db: Db,
  idCliente: number,
  days: Pick<VisitDay, 'diaSemana' | 'intervaloSemanas' | 'dataBase'>[],
): Promise<void> {
  const odoo = await isOdooErp(db);
  if (odoo) await sql`delete from public.x_campo_visita where partner_id = ${idCliente}`.execute(db);
  else await sql`delete from public.corrent_visitas where id_corrent = ${idCliente}`.execute(db);
  for (const d of days) {
    if (odoo)
      await sql`
        insert into public.x_campo_visita (partner_id, dia_semana, intervalo_semanas, data_base)
        values (${idCliente}, ${d.diaSemana}, ${d.intervaloSemanas}, ${d.dataBase})`.execute(db);
    else
      await sql`
        insert into public.corrent_visitas (id_corrent, dia_semana, intervalo_semanas, data_base)
        values (${idCliente}, ${d.diaSemana}, ${d.intervaloSemanas}, ${d.dataBase})`.execute(db);
  }
}

/** The ERP keeps these coordinates for the client (null: none). */
export async function setErpClientPosition(
  db: Db,
  idCliente: number,
  place: { latitude: number; longitude: number } | null,
): Promise<void> {
  const [lat, lon] = [place?.latitude ?? null, place?.longitude ?? null];
  if (await isOdooErp(db))
    await sql`
      update public.res_partner set partner_latitude = ${lat}, partner_longitude = ${lon}
       where id = ${idCliente}`.execute(db);
  else
    await sql`update public.corrent set latitude = ${lat}, longitude = ${lon} where id_corrent = ${idCliente}`.execute(
      db,
    );
}
