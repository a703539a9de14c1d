// 5Post requests as the protocol has them (protocols.md §8.2, verified-2026 §8): the API key is exchanged for
// a JWT with a form POST to /jwt-generate-claims/rs256/1?apikey=…; the catalogue is POST
// /api/v1/pickuppoints/query {pageSize, pageNumber} with `Authorization: Bearer`. Pages are numbered from 0.

/** 5Post serves at most 2000 points a page (lapaygroup README); see CATALOGUE_PAGE_SIZE for ours. */
export const MAX_PAGE_SIZE = 2000;

export function jwtUrl(baseUrl: string, apiKey: string): string {
  return `${baseUrl}/jwt-generate-claims/rs256/1?${new URLSearchParams({ apikey: apiKey }).toString()}`;
}

/** The form body every SDK sends (FP-LAP, FP-IPOL "FORM", FP-WP); one guide says an empty body works too. */
export const JWT_FORM_BODY = new URLSearchParams({ subject: 'OpenAPI', audience: 'A122019!' }).toString();

export function pointsPageUrl(baseUrl: string): string {
  return `${baseUrl}/api/v1/pickuppoints/query`;
}

export function pointsPageBody(
  pageNumber: number,
  pageSize: number,
): { pageSize: number; pageNumber: number } {
  if (pageSize < 1 || pageSize > MAX_PAGE_SIZE)
    throw new RangeError(`5Post page size ${pageSize} out of 1..${MAX_PAGE_SIZE}`);
  return { pageSize, pageNumber };
}
