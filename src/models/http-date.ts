/**
 * An HTTP-date (RFC 9110 §5.6.7) as ms since 1970, or undefined when `value` is not one. Read
 * strictly: the IMF-fixdate a server must send (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two
 * obsolete forms a recipient must accept, rfc850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
 * (`Sun Nov  6 08:49:37 1994`). Not `Date.parse`, which takes "banana 2030" for 1 January 2030.
 * The day's name is checked for its form, not against the date (the date is what counts).
 * `now` places rfc850's two-digit year: a year more than 50 years ahead is the century before.
 */
export function parseHttpDate(value: string, now: number): number | undefined {
  const imf = imfFixdate.exec(value);
  if (imf !== null) return timeOf({ year: Number(imf[3]), month: imf[2]!, day: imf[1]!, time: imf.slice(4, 7) });
  const old = rfc850.exec(value);
  if (old !== null) return timeOf({ year: fullYear(Number(old[3]), now), month: old[2]!, day: old[1]!, time: old.slice(4, 7) });
  const asc = asctime.exec(value);
  if (asc !== null) return timeOf({ year: Number(asc[6]), month: asc[1]!, day: asc[2]!, time: asc.slice(3, 6) });
  return undefined;
}

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const month = `(${months.join("|")})`;
const time = "(\\d{2}):(\\d{2}):(\\d{2})";
const dayName = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const longDayName = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const imfFixdate = new RegExp(`^${dayName}, (\\d{2}) ${month} (\\d{4}) ${time} GMT$`);
const rfc850 = new RegExp(`^${longDayName}, (\\d{2})-${month}-(\\d{2}) ${time} GMT$`);
const asctime = new RegExp(`^${dayName} ${month} (\\d{2}| \\d) ${time} (\\d{4})$`);

/** The moment the parts name, if each is in its range (a second of 60 is a leap second). */
function timeOf(parts: { year: number; month: string; day: string; time: string[] }): number | undefined {
  const [hours, minutes, seconds] = parts.time.map(Number) as [number, number, number];
  const day = Number(parts.day.trim());
  const monthIndex = months.indexOf(parts.month);
  if (hours > 23 || minutes > 59 || seconds > 60 || day < 1) return undefined;
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(parts.year, monthIndex, day);
  if (date.getUTCMonth() !== monthIndex) return undefined; // 31 Feb
  return date.getTime() + ((hours * 60 + minutes) * 60 + seconds) * 1000;
}

/** rfc850's two-digit year, in the century that puts it no more than 50 years ahead of `now`. */
function fullYear(twoDigits: number, now: number): number {
  const thisYear = new Date(now).getUTCFullYear();
  const year = thisYear - (thisYear % 100) + twoDigits;
  return year > thisYear + 50 ? year - 100 : year <= thisYear - 50 ? year + 100 : year;
}
