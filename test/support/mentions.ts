// Whether an answer names a number (an id of another tenant's row, the ERP's internal id) as a
// number of its own: not as the digits inside a UUID, a timestamp or a longer number. A plain
// substring check failed a run at 00:44 UTC because "44" was in the answer's time ("00:44:06")
// and another in a request id ("...-64fc-44df-..."), and would miss nothing the check below sees.
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO_TIME = /\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?/g;

export function mentionsNumber(text: string, n: number): boolean {
  const plain = text.replace(UUID, '<uuid>').replace(ISO_TIME, '<time>');
  return new RegExp(`(?<![\\d.,])${n}(?![\\d.,]\\d|\\d)`).test(plain);
}
