// The client's wire types (src/client/api-types.ts, which imports nothing so the client runs
// anywhere) and the server's answer schemas (src/server/api-responses.ts, which the OpenAPI
// document is made of and the handlers are typed by) are written twice; this binds their fields:
// a field the server sends that the client's type leaves out, or one the client expects that
// the server never sends, fails the type check.
import { describe, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { ApiError, DecisionAnswer, GrantAnswer, RunList, RunView, StartRunAnswer } from "../../src/client/api-types.js";
import type * as answers from "../../src/server/api-responses.js";

type Fields<Schema extends z.ZodType> = keyof z.output<Schema>;

describe("the client's types and the server's answer schemas", () => {
  it("name the same fields", () => {
    expectTypeOf<keyof StartRunAnswer>().toEqualTypeOf<Fields<typeof answers.runCreated>>();
    expectTypeOf<keyof RunList>().toEqualTypeOf<Fields<typeof answers.runList>>();
    expectTypeOf<keyof RunList["runs"][number]>().toEqualTypeOf<keyof z.output<typeof answers.runList>["runs"][number]>();
    expectTypeOf<keyof RunView>().toEqualTypeOf<Fields<typeof answers.runView>>();
    expectTypeOf<keyof NonNullable<RunView["origin"]>>().toEqualTypeOf<keyof NonNullable<z.output<typeof answers.runView>["origin"]>>();
    expectTypeOf<keyof DecisionAnswer>().toEqualTypeOf<Fields<typeof answers.decisionsTaken>>();
    expectTypeOf<keyof GrantAnswer>().toEqualTypeOf<Fields<typeof answers.grantKept>>();
    expectTypeOf<keyof GrantAnswer["grant"]>().toEqualTypeOf<keyof z.output<typeof answers.grantKept>["grant"]>();
    expectTypeOf<keyof ApiError>().toEqualTypeOf<Fields<typeof answers.apiError>>();
  });
});
