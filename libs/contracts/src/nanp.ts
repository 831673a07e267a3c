/**
 * Which numbers of the North American Numbering Plan (country code 1) are United States
 * numbers. NANP is shared by the US and its territories, Canada and much of the
 * Caribbean, so "+1 and 10 digits" alone also reaches Toronto or Kingston, where an SMS
 * costs several times a US one (issue #18, MEDIUM 6; ADR 1320).
 *
 * The data: the area codes (NPAs) NANPA lists as assigned to a NANP member other than the
 * United States, geographic and non-geographic, as published by NANPA (nationalnanpa.com,
 * "NPA reports", "Canada" and the Caribbean countries) and, for Canada, the Canadian
 * Numbering Administrator (cnac.ca). US territories (Puerto Rico 787/939, US Virgin
 * Islands 340, Guam 671, Northern Mariana Islands 670, American Samoa 684) are US. When
 * NANPA assigns a new Canadian or Caribbean code, add it here (a test lists the
 * totals, so the change is deliberate).
 */
export const NON_US_NANP_AREA_CODES: Readonly<Record<string, readonly string[]>> = {
  Canada: [
    '204',
    '226',
    '236',
    '249',
    '250',
    '257',
    '263',
    '289',
    '306',
    '343',
    '354',
    '365',
    '367',
    '368',
    '382',
    '387',
    '403',
    '416',
    '418',
    '428',
    '431',
    '437',
    '438',
    '450',
    '460',
    '468',
    '474',
    '506',
    '514',
    '519',
    '548',
    '579',
    '581',
    '584',
    '587',
    '600',
    '604',
    '613',
    '622',
    '639',
    '647',
    '672',
    '683',
    '705',
    '709',
    '742',
    '753',
    '778',
    '780',
    '782',
    '807',
    '819',
    '825',
    '867',
    '873',
    '879',
    '902',
    '905',
    '942',
  ],
  Bahamas: ['242'],
  Barbados: ['246'],
  Anguilla: ['264'],
  'Antigua and Barbuda': ['268'],
  'British Virgin Islands': ['284'],
  'Cayman Islands': ['345'],
  Bermuda: ['441'],
  Grenada: ['473'],
  'Turks and Caicos Islands': ['649'],
  Jamaica: ['658', '876'],
  Montserrat: ['664'],
  'Sint Maarten': ['721'],
  'Saint Lucia': ['758'],
  Dominica: ['767'],
  'Saint Vincent and the Grenadines': ['784'],
  'Dominican Republic': ['809', '829', '849'],
  'Trinidad and Tobago': ['868'],
  'Saint Kitts and Nevis': ['869'],
};

const NON_US = new Map(
  Object.entries(NON_US_NANP_AREA_CODES).flatMap(([country, codes]) =>
    codes.map((c) => [c, country] as const),
  ),
);

/**
 * Why a 10-digit NANP number (area code, exchange, line) is not a US number that can
 * take an SMS, or undefined when it is one. NANP's own rules: neither the area code nor
 * the exchange starts with 0 or 1, and N11 (211…911) are service codes, not area codes
 * or exchanges. Then the area code must not belong to another NANP country.
 */
export const nonUsNanpReason = (tenDigits: string): string | undefined => {
  if (!/^\d{10}$/.test(tenDigits)) return 'must be 10 digits';
  const area = tenDigits.slice(0, 3);
  const exchange = tenDigits.slice(3, 6);
  if (/^[01]/.test(area)) return `area code ${area} cannot start with 0 or 1`;
  if (/^.11$/.test(area)) return `${area} is a service code, not an area code`;
  if (/^[01]/.test(exchange)) return `exchange ${exchange} cannot start with 0 or 1`;
  if (/^.11$/.test(exchange)) return `exchange ${exchange} is a service code`;
  const country = NON_US.get(area);
  if (country !== undefined) return `area code ${area} is in ${country}; SMS goes to US numbers only`;
  return undefined;
};
