import type { ReportSubject } from "../../src/report/model.js";

/** A report subject with nothing counted yet, topic `${name}s`, with `fields` in place of the defaults. */
export function emptySubject(name: string, fields: Partial<ReportSubject> = {}): ReportSubject {
  return {
    subject: name,
    topics: [`${name}s`],
    records: 0,
    undeclared: 0,
    unreadable: 0,
    unknownUse: [],
    retiredTraffic: [],
    sampleRatio: 1,
    versions: [],
    producers: [],
    wouldFail: [],
    coverage: [],
    openTransactions: [],
    recentGaps: [],
    registry: null,
    ...fields,
  };
}
