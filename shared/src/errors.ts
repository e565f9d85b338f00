import { z } from 'zod';

/**
 * Every `code` a problem answer can carry, each with its HTTP status and its pt-BR title (one
 * title per code: RFC 9457 says a problem type's title does not change from occurrence to
 * occurrence; what happened this time goes in `detail`). The only list of codes: the server's
 * DomainError takes a key of it, the problem schema's `code` is its enum, and docs/errors.md
 * explains each one (a test keeps that table equal to this map).
 *
 * A code keeps its string and its status for good: clients branch on them. A code with two
 * statuses lists the usual one first; the thrower names the other where it applies.
 */
export const ERRORS = {
  // Input the route's contract refuses, before any business rule.
  VALIDATION_FAILED: { status: 400, title: 'Dados inválidos' },
  MALFORMED_JSON: { status: 400, title: 'JSON inválido' },
  INVALID_CHARACTER: { status: 400, title: 'Caractere inválido' },
  UNSUPPORTED_CHARACTER: { status: 400, title: 'Caractere não suportado' },
  HTTP_ERROR: { status: 400, title: 'Erro na requisição' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Corpo grande demais' },
  ROUTE_NOT_FOUND: { status: 404, title: 'Rota não encontrada' },
  INTERNAL_ERROR: { status: 500, title: 'Erro interno' },
  // The database restarting, failing over or refusing connections: try again, nothing is wrong
  // with the request (server/src/db/availability.ts).
  DATABASE_UNAVAILABLE: { status: 503, title: 'Banco de dados indisponível' },

  // Who may do what.
  UNAUTHORIZED: { status: 401, title: 'Não autenticado' },
  INVALID_CREDENTIALS: { status: 401, title: 'Login ou senha incorretos' },
  TOO_MANY_LOGIN_ATTEMPTS: { status: 429, title: 'Muitas tentativas de login' },
  LOGIN_COMPANY_REQUIRED: { status: 409, title: 'Informe a empresa' },
  LOGIN_BUSY: { status: 503, title: 'Servidor ocupado' },
  FORBIDDEN: { status: 403, title: 'Proibido' },
  NOT_FOUND: { status: 404, title: 'Não encontrado' },

  // Orders.
  IDEMPOTENCY_KEY_INVALID: { status: 400, title: 'Idempotency-Key ausente ou inválida' },
  IDEMPOTENCY_KEY_IN_FLIGHT: { status: 409, title: 'Pedido em processamento' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, title: 'Chave de idempotência reutilizada' },
  ORDER_REFUSED: { status: 422, title: 'Pedido recusado' },
  ORDER_ALREADY_DECIDED: { status: 409, title: 'Pedido já decidido' },
  ERP_REPLICATION_FAILED: { status: 422, title: 'O ERP recusou o pedido' },

  // Catalogue, clients and the company.
  PAUTA_NOT_FOUND: { status: 404, title: 'Tabela de preço não encontrada' },
  PRICE_LIST_NOT_FOUND: { status: 422, title: 'Pauta não encontrada' },
  CLIENT_DOCUMENT_EXISTS: { status: 409, title: 'Documento já cadastrado' },
  ERP_REFUSED_CLIENT: { status: 422, title: 'Cadastro recusado pelo ERP' },
  PRODUCT_IMAGE_NOT_FOUND: { status: 404, title: 'Produto sem imagem' },
  PRODUCT_IMAGE_UNAVAILABLE: { status: 404, title: 'Imagem do produto indisponível' },
  LOGO_EMPTY: { status: 400, title: 'Imagem vazia' },
  LOGO_TOO_LARGE: { status: 413, title: 'Imagem grande demais' },
  LOGO_TYPE_NOT_SUPPORTED: { status: 415, title: 'Tipo de imagem não aceito' },
  LOGO_UNREADABLE: { status: 422, title: 'Imagem ilegível' },
  LOGO_TRUNCATED: { status: 422, title: 'Imagem incompleta' },
  LOGO_TRAILING_DATA: { status: 422, title: 'Imagem com conteúdo estranho' },
  LOGO_DIMENSIONS_TOO_LARGE: { status: 422, title: 'Imagem com dimensões grandes demais' },

  // Tickets and the sales funnel.
  TICKET_CLOSED: { status: 409, title: 'Chamado encerrado' },
  ORDER_NOT_FOUND: { status: 422, title: 'Pedido não encontrado' },
  CLIENT_NOT_IN_PORTFOLIO: { status: 422, title: 'Cliente fora da carteira' },
  LOSS_REASON_REQUIRED: { status: 422, title: 'Motivo da perda obrigatório' },
  CLIENT_OR_PROSPECT_REQUIRED: { status: 422, title: 'Cliente ou prospect obrigatório' },
  OPPORTUNITY_ID_TAKEN: { status: 409, title: 'Id de oportunidade em uso' },
  OPPORTUNITY_CONFLICT: { status: 409, title: 'Oportunidade alterada' },

  // Visits and the route (docs/visits.md).
  VISIT_ALREADY_OPEN: { status: 409, title: 'Visita em andamento' },
  VISIT_NOT_CHECKED_IN: { status: 404, title: 'Visita sem check-in' },
  VISIT_ALREADY_CLOSED: { status: 409, title: 'Visita já encerrada' },
  VISIT_ID_TAKEN: { status: 409, title: 'Id de visita em uso' },
  VISIT_REASON_REQUIRED: { status: 422, title: 'Motivo da visita obrigatório' },
  VISIT_REASON_NOT_FOUND: { status: 422, title: 'Motivo não cadastrado' },
  VISIT_NOTE_REQUIRED: { status: 422, title: 'Observação obrigatória' },
  VISIT_PHOTO_REQUIRED: { status: 422, title: 'Foto obrigatória' },
  VISIT_PHOTO_EMPTY: { status: 400, title: 'Foto vazia' },
  VISIT_PHOTO_TOO_LARGE: { status: 413, title: 'Foto grande demais' },
  VISIT_PHOTO_TYPE_NOT_SUPPORTED: { status: 415, title: 'Tipo de foto não aceito' },
  VISIT_PHOTO_INVALID: { status: 422, title: 'Foto ilegível' },
  VISIT_PLAN_FROM_ERP: { status: 409, title: 'Roteiro mantido pelo ERP' },
  VISIT_REASONS_FULL: { status: 409, title: 'Lista de motivos cheia' },

  // Credit and flex (docs/credit-and-flex.md).
  FLEX_BALANCE_INSUFFICIENT: { status: 409, title: 'Saldo flex insuficiente' },

  // Dashboards, users, notifications, error reports.
  COD_VENDEDOR_REQUIRED: { status: 400, title: 'Representante não informado' },
  ERP_RECORD_NOT_FOUND: { status: 400, title: 'Código não encontrado no ERP' },
  LOGIN_UNAVAILABLE: { status: 409, title: 'Login indisponível' },
  CANNOT_DISABLE_SELF: { status: 422, title: 'Não é possível desativar a si mesmo' },
  PUSH_DISABLED: { status: 503, title: 'Notificações indisponíveis' },
  TOO_MANY_CLIENT_ERRORS: { status: 429, title: 'Muitos relatórios de erro' },

  // Replication.
  CHECKPOINT_INVALID: { status: 400, title: 'Checkpoint inválido' },
  CHECKPOINT_SCOPE: { status: 400, title: 'Checkpoint de outro escopo' },
  // 426: the app is older than the server serves; 400: newer than it knows (a rolling deploy).
  SYNC_VERSION_UNSUPPORTED: { status: [426, 400], title: 'Versão de sincronização não atendida' },
  SYNC_STREAM_DISABLED: { status: 503, title: 'Avisos de sincronização indisponíveis' },
  SYNC_BUSY: { status: 503, title: 'Servidor ocupado' },
} as const satisfies Record<string, { status: number | readonly [number, ...number[]]; title: string }>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]];
export const ZErrorCode = z
  .enum(ERROR_CODES)
  .describe('Stable machine-readable code; docs/errors.md lists each with its status and meaning');

/**
 * Why an order is refused (REFUSAL_CODES, in shared/src/orders.ts), besides three problem codes:
 * CLIENT_NOT_IN_PORTFOLIO, PRICE_LIST_NOT_FOUND and FLEX_BALANCE_INSUFFICIENT (a manager's debit
 * beyond the balance is that problem; an order's line the balance does not cover, that reason).
 */
export const ORDER_REASON_CODES = [
  'CLIENT_BLOCKED',
  'NO_PRICE_LIST',
  'PRODUCT_NOT_FOUND',
  'PRODUCT_INACTIVE',
  'PRICE_NOT_ON_LIST',
  'DISCOUNT_ABOVE_CEILING',
  'NO_DELIVERY_ADDRESS',
  'PAYMENT_TERM_NOT_ALLOWED',
  'CREDIT_LIMIT_EXCEEDED',
] as const;

/**
 * The codes that are never a problem's own `code`, so they have no status: they travel inside an
 * answer (a refused order's `reasons`, a replicated document's refusal) or stop before one (the
 * discount engine's verdict, the `campo user` refusals). With ERRORS they are the one list of
 * codes: a code is spelled here or there, and every other list picks from the two (`pickCodes`).
 * docs/errors.md explains each ("Reasons").
 */
export const REASON_CODES = [
  ...ORDER_REASON_CODES,
  // A replicated document the contract refuses, refused on its own rather than failing the push.
  'VALIDATION',
  // The discount engine's verdict on a discount that is not a percentage (the cart's; the
  // order's contract refuses one before the engine runs).
  'DISCOUNT_INVALID',
  // `campo user add`: the login is taken in the tenant (/usuarios answers LOGIN_UNAVAILABLE).
  'USER_EXISTS',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/** Any code: a problem's or a reason's. */
export type Code = ErrorCode | ReasonCode;
export const CODES = [...ERROR_CODES, ...REASON_CODES] as [Code, ...Code[]];

export const isCode = (value: unknown): value is Code =>
  isErrorCode(value) || (REASON_CODES as readonly unknown[]).includes(value);

/** A list of codes picked from the one list: a code it does not hold does not compile. */
export const pickCodes = <const C extends readonly [Code, ...Code[]]>(...codes: C): C => codes;

type StatusEntry<C extends ErrorCode> = (typeof ERRORS)[C]['status'];
/** The HTTP statuses a code may answer with (most codes have one). */
export type ErrorStatus<C extends ErrorCode = ErrorCode> =
  StatusEntry<C> extends readonly (infer S)[] ? S : StatusEntry<C>;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERRORS, value);

/** Every status a code may answer with, the usual one first (none for a string not in the catalogue). */
export function errorStatuses(code: ErrorCode): readonly number[] {
  if (!isErrorCode(code)) return [];
  const status: number | readonly number[] = ERRORS[code].status;
  return typeof status === 'number' ? [status] : status;
}

/** The usual HTTP status of a code. */
export const errorStatus = (code: ErrorCode): number => errorStatuses(code)[0] as number;
