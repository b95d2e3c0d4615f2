// A sleep that another part of the code can cut short (new events, or stop()). An interrupt that
// arrives while nobody sleeps is remembered, so the next sleep returns at once instead of missing it.
export class Sleeper {
  private wake: (() => void) | null = null;
  private interruptedEarly = false;

  sleep(ms: number): Promise<void> {
    if (this.interruptedEarly) {
      this.interruptedEarly = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.wake = finish;
    });
  }

  interrupt(): void {
    if (this.wake) this.wake();
    else this.interruptedEarly = true;
  }
}
