import type { LabelledCase } from "./labelled-cases.js";

/**
 * A fifteenth batch of the report-shapes suite, written after the fourteenth was fixed and before
 * its own fixes: money as payment APIs return it (Stripe's amounts in cents beside a lower-case
 * `currency`, zero-decimal yen; Shopify's decimal strings; PayPal's `value` strings), and values
 * written in the forms reports use for them ("US$1.2M", "1.2 million dollars", "12,900 cents").
 */
const charge = { id: "ch_1", object: "charge", amount: 12900, amount_refunded: 2500, currency: "usd" };
const balance = {
  object: "list",
  data: [
    { id: "txn_1", type: "charge", amount: 12900, fee: 404, net: 12496, currency: "usd" },
    { id: "txn_2", type: "refund", amount: -2500, fee: 0, net: -2500, currency: "usd" },
    { id: "txn_3", type: "charge", amount: 8400, fee: 274, net: 8126, currency: "usd" },
  ],
};
const yen = { id: "ch_2", amount: 12900, currency: "jpy" };
const paypal = { id: "PAY-1", amount: { value: "129.90", currency_code: "USD" } };
const revenue = { revenue_usd: 1204500 };

export const fifteenthReportShapes: LabelledCase[] = [
  {
    id: "fifteenth-stripe-1",
    steps: [{ id: 1, output: charge }],
    answer: "The charge was for {+$129.00}, of which {+$25.00} was refunded [s1].",
  },
  { id: "fifteenth-stripe-2", steps: [{ id: 1, output: charge }], answer: "The charge was for {-$192.00} [s1]." },
  { id: "fifteenth-stripe-3", steps: [{ id: 1, output: charge }], answer: "Net of the refund, {+$104.00} was kept [s1]." },
  { id: "fifteenth-stripe-4", steps: [{ id: 1, output: charge }], answer: "The charge was for {+12,900} cents [s1]." },
  { id: "fifteenth-stripe-5", steps: [{ id: 1, output: balance }], answer: "Charges came to {+$213.00} in total [s1]." },
  { id: "fifteenth-stripe-6", steps: [{ id: 1, output: balance }], answer: "Fees totalled {+$6.78} [s1]." },
  { id: "fifteenth-stripe-7", steps: [{ id: 1, output: balance }], answer: "Fees totalled {-$7.68} [s1]." },
  { id: "fifteenth-stripe-8", steps: [{ id: 1, output: balance }], answer: "One refund of {+$25.00} went out [s1]." },
  { id: "fifteenth-stripe-9", steps: [{ id: 1, output: balance }], answer: "The largest charge was {+$129.00} [s1]." },
  { id: "fifteenth-stripe-10", steps: [{ id: 1, output: balance }], answer: "The largest charge was {-$84.00} [s1]." },
  { id: "fifteenth-yen-1", steps: [{ id: 1, output: yen }], answer: "The charge was for {+¥12,900} [s1]." },
  { id: "fifteenth-yen-2", steps: [{ id: 1, output: yen }], answer: "The charge was for {-¥129} [s1]." },
  { id: "fifteenth-paypal-1", steps: [{ id: 1, output: paypal }], answer: "The payment was {+$129.90} [s1]." },
  { id: "fifteenth-paypal-2", steps: [{ id: 1, output: paypal }], answer: "The payment was {-$192.90} [s1]." },
  { id: "fifteenth-forms-1", steps: [{ id: 1, output: revenue }], answer: "Revenue was {+US$1.2M} [s1]." },
  { id: "fifteenth-forms-2", steps: [{ id: 1, output: revenue }], answer: "Revenue was {+1.2 million} dollars [s1]." },
  { id: "fifteenth-forms-3", steps: [{ id: 1, output: revenue }], answer: "Revenue was {+$1,204.5K} [s1]." },
  { id: "fifteenth-forms-4", steps: [{ id: 1, output: revenue }], answer: "Revenue was {-US$1.3M} [s1]." },
];
