// The logo goes up as the file's raw bytes (PUT /catalog/company/logo), not JSON, so api()
// does not fit; this sends it with the same token and turns a problem into the same ApiError,
// whose pt-BR detail (type, size, dimensions, truncated file) the screen shows as it is.
import type { Company, Problem } from '@campo/shared';
import { ApiError, apiUrl } from '../../api.ts';
import { session } from '../../session/session.ts';

const ACCEPTED = ['image/png', 'image/jpeg', 'image/webp'];
/** 500 KiB, as the API counts it: only used to explain a connection the server cut short. */
const MAX_BYTES = 500 * 1024;

export async function uploadLogo(file: File): Promise<Company> {
  const token = session.peek()?.token;
  // The server decides the type from the bytes; an unknown declared type goes as octet-stream
  // so the answer explains what the file really is.
  const type = ACCEPTED.includes(file.type) ? file.type : 'application/octet-stream';
  let res: Response;
  try {
    res = await fetch(apiUrl('/catalog/company/logo'), {
      method: 'PUT',
      headers: {
        'content-type': type,
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: file,
    });
  } catch {
    if (file.size > MAX_BYTES) {
      throw new ApiError(413, 'LOGO_TOO_LARGE', 'Imagem grande demais', 'O logo pode ter no máximo 500 KB.');
    }
    throw new ApiError(
      0,
      'NETWORK_ERROR',
      'Sem conexão',
      'Não foi possível falar com o servidor. Verifique a conexão.',
    );
  }
  if (res.ok) return (await res.json()) as Company;
  let problem: Partial<Problem> = {};
  try {
    problem = (await res.json()) as Partial<Problem>;
  } catch {
    // Not a problem body: the generic message below stands.
  }
  throw new ApiError(
    res.status,
    problem.code ?? `HTTP_${res.status}`,
    problem.title ?? 'Erro no servidor',
    problem.detail ?? `O servidor respondeu ${res.status}.`,
    problem.code ? (problem as Problem) : undefined,
  );
}
