import { Slots } from "./slots.js";

/**
 * One call of each tenant at a time, per tenant first come first served: the calls a process
 * sends to a store that orders tenants itself (`LimitStore.bookFair`). Each tenant's next call
 * asks the store while the others' do too, so every tenant waiting in the process has its claim
 * in the store; one tenant held back there holds back no other.
 */
export class TenantGates {
  /** Each tenant's gate and how many calls hold or wait for it (a Map: a tenant may be called anything). */
  private readonly gates = new Map<string, { slots: Slots; users: number }>();

  /** Waits for the tenant's gate; gives back its release (once). */
  async enter(tenant: string, signal?: AbortSignal): Promise<() => void> {
    let gate = this.gates.get(tenant);
    if (gate === undefined) this.gates.set(tenant, (gate = { slots: new Slots(1), users: 0 }));
    gate.users += 1;
    const done = () => {
      if ((gate.users -= 1) === 0) this.gates.delete(tenant);
    };
    try {
      const release = await gate.slots.take(signal);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        release();
        done();
      };
    } catch (error) {
      done();
      throw error;
    }
  }
}
