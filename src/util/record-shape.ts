/**
 * A row of a table or a data file as extraction writes it, each value named by its column
 * (`version: 3.0; codename: Woody; release: 2002-07-19.`): one record, never cut into sentences
 * at a full stop inside a value ("Organization Address: 12758 W. Deep Canyon Dr. Star ID").
 */
export const RECORD = /^[^:;]{1,40}: [^;]+(?:; [^:;]{1,40}: [^;]+)+$/;
