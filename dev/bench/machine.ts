import { cpus, totalmem } from 'node:os';

/** The machine a run happened on, for BENCHMARKS.md. */
export function describeMachine(): string {
  const list = cpus();
  const model = list[0]?.model.trim() ?? 'unknown CPU';
  const memory = `${Math.round(totalmem() / 2 ** 30)} GiB RAM`;
  return `${model}, ${list.length} cores, ${memory}, Node ${process.version} (${process.platform}/${process.arch})`;
}
