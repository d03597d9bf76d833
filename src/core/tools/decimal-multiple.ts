import type { Ajv, KeywordDefinition } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";

/**
 * `multipleOf` on the numbers as written, not as binary floating point: 19.99 is a multiple of
 * 0.01 (a price in cents), though 19.99 / 0.01 is 1998.9999999999998 in a double. Both numbers
 * are read as the decimal text JavaScript gives them (the shortest that reads back the same) and
 * compared as whole numbers at a common scale, exactly: what JSON Schema means by a multiple.
 */
export function isDecimalMultiple(value: number, step: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(step) || step <= 0) return false;
  const a = decimal(value);
  const b = decimal(step);
  const scale = Math.max(a.scale, b.scale);
  const whole = (number: { digits: bigint; scale: number }) => number.digits * 10n ** BigInt(scale - number.scale);
  return whole(a) % whole(b) === 0n;
}

/** A finite number as digits and a scale: 19.99 is 1999 at scale 2; 1.5e300 is 15 followed by 299 zeros at scale 0. */
function decimal(number: number): { digits: bigint; scale: number } {
  const [mantissa = "0", exponent = "0"] = String(Math.abs(number)).toLowerCase().split("e");
  const [whole = "0", fraction = ""] = mantissa.split(".");
  const scale = fraction.length - Number(exponent);
  const digits = BigInt(whole + fraction);
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

const keyword: KeywordDefinition = {
  keyword: "multipleOf",
  type: "number",
  schemaType: "number",
  errors: true,
  validate: function multipleOf(step: number, value: number): boolean {
    if (isDecimalMultiple(value, step)) return true;
    (multipleOf as unknown as { errors: unknown[] }).errors = [
      { keyword: "multipleOf", message: `must be multiple of ${step}`, params: { multipleOf: step } },
    ];
    return false;
  },
};

/** Replaces a validator's `multipleOf` with the decimal one (`isDecimalMultiple`). */
export function withDecimalMultipleOf<Validator extends Ajv | Ajv2020>(validator: Validator): Validator {
  validator.removeKeyword("multipleOf");
  validator.addKeyword(keyword);
  return validator;
}
