// Clients of the commerce API written from /work/shared/spec/commerce-api.md alone.
//
// Every module exports `async function run(options)` with
//   options = { baseUrl, token, ids: { realm_id, user_authentication_info_id,
//               password_profile_id }, sleep?, now?, fetch? }
// and returns a plain JSON-able result:
//   readers: { ids: { <collection>: [record ids, in the order first read] }, ... }
//   writers: { statuses: [HTTP status of each create, in order], ... }
// `collections` names what a reader reads (keys of result.ids), for checking that
// nothing was lost; `breaks` quotes the sentence of the document a trap breaks.

import * as uiGridJumps from './legal/ui-grid-jumps.mjs';
import * as reportCreatedWindow from './legal/report-created-window.mjs';
import * as exportThreeInterleaved from './legal/export-three-interleaved.mjs';
import * as resumableAccountsCsv from './legal/resumable-accounts-csv.mjs';
import * as smallPagesLiteralGe from './legal/small-pages-literal-ge.mjs';
import * as offsetDefaultPage from './legal/offset-default-page.mjs';
import * as retryThroughResets from './legal/retry-through-resets.mjs';
import * as followNextLinks from './legal/follow-next-links.mjs';
import * as createPasswordProfiles from './legal/create-password-profiles.mjs';
import * as ordersGeToTheLetter from './legal/orders-ge-to-the-letter.mjs';
import * as provisionUnicodePasswords from './legal/provision-unicode-passwords.mjs';
import * as syncByUpdatedAt from './legal/sync-by-updated-at.mjs';

import * as createSevenCharPassword from './traps/create-seven-char-password.mjs';
import * as createSevenCharMultibytePassword from './traps/create-seven-char-multibyte-password.mjs';
import * as createHyphenatedType from './traps/create-hyphenated-type.mjs';
import * as createWithoutAuthorization from './traps/create-without-authorization.mjs';
import * as createWithoutPasswordProfileId from './traps/create-without-password-profile-id.mjs';
import * as createWithoutV2 from './traps/create-without-v2.mjs';
import * as createUnwrappedFields from './traps/create-unwrapped-fields.mjs';
import * as walkCreatedAtGt from './traps/walk-created-at-gt.mjs';
import * as keysetUnsortedFirstPage from './traps/keyset-unsorted-first-page.mjs';
import * as idWalkStopsShortPage from './traps/id-walk-stops-short-page.mjs';
import * as ordersOffsetPastLimit from './traps/orders-offset-past-limit.mjs';
import * as geWalkSkipsTiedPage from './traps/ge-walk-skips-tied-page.mjs';
import * as offsetCountedInPages from './traps/offset-counted-in-pages.mjs';
import * as pageLimitOverMaximum from './traps/page-limit-over-maximum.mjs';

/**
 * @typedef {{ name: string, file: string, run: (options: object) => Promise<object>,
 *   collections?: string[], breaks?: string }} DocClient
 */

/** @type {DocClient[]} */
export const legal = [
  { name: 'ui-grid-jumps', file: 'legal/ui-grid-jumps.mjs', run: uiGridJumps.run, collections: ['accounts'] },
  {
    name: 'report-created-window',
    file: 'legal/report-created-window.mjs',
    run: reportCreatedWindow.run,
    collections: ['orders'],
  },
  {
    name: 'export-three-interleaved',
    file: 'legal/export-three-interleaved.mjs',
    run: exportThreeInterleaved.run,
    collections: ['accounts', 'orders', 'files'],
  },
  {
    name: 'resumable-accounts-csv',
    file: 'legal/resumable-accounts-csv.mjs',
    run: resumableAccountsCsv.run,
    collections: ['accounts'],
  },
  {
    name: 'small-pages-literal-ge',
    file: 'legal/small-pages-literal-ge.mjs',
    run: smallPagesLiteralGe.run,
    collections: ['orders'],
  },
  {
    name: 'offset-default-page',
    file: 'legal/offset-default-page.mjs',
    run: offsetDefaultPage.run,
    collections: ['orders'],
  },
  {
    name: 'retry-through-resets',
    file: 'legal/retry-through-resets.mjs',
    run: retryThroughResets.run,
    collections: ['files', 'accounts'],
  },
  { name: 'follow-next-links', file: 'legal/follow-next-links.mjs', run: followNextLinks.run, collections: ['files'] },
  { name: 'create-password-profiles', file: 'legal/create-password-profiles.mjs', run: createPasswordProfiles.run },
  {
    name: 'orders-ge-to-the-letter',
    file: 'legal/orders-ge-to-the-letter.mjs',
    run: ordersGeToTheLetter.run,
    collections: ['orders'],
  },
  {
    name: 'provision-unicode-passwords',
    file: 'legal/provision-unicode-passwords.mjs',
    run: provisionUnicodePasswords.run,
  },
  {
    name: 'sync-by-updated-at',
    file: 'legal/sync-by-updated-at.mjs',
    run: syncByUpdatedAt.run,
    collections: ['accounts'],
  },
];

/** @type {DocClient[]} */
export const traps = [
  {
    name: 'create-seven-char-password',
    file: 'traps/create-seven-char-password.mjs',
    run: createSevenCharPassword.run,
    breaks: '2.1: "The password used to authenticate. Minimum 8 characters."',
  },
  {
    name: 'create-seven-char-multibyte-password',
    file: 'traps/create-seven-char-multibyte-password.mjs',
    run: createSevenCharMultibytePassword.run,
    breaks: '2.1: "The password used to authenticate. Minimum 8 characters." (7 characters, 9 bytes)',
  },
  {
    name: 'create-hyphenated-type',
    file: 'traps/create-hyphenated-type.mjs',
    run: createHyphenatedType.run,
    breaks: '2.1: "Treat the underscore form as the value on the wire."',
  },
  {
    name: 'create-without-authorization',
    file: 'traps/create-without-authorization.mjs',
    run: createWithoutAuthorization.run,
    breaks: '5: "The header is required on the create operation."',
  },
  {
    name: 'create-without-password-profile-id',
    file: 'traps/create-without-password-profile-id.mjs',
    run: createWithoutPasswordProfileId.run,
    breaks: '2.1: "| password_profile_id | Required | string | The ID of the password profile. |"',
  },
  {
    name: 'create-without-v2',
    file: 'traps/create-without-v2.mjs',
    run: createWithoutV2.run,
    breaks: '9: "Resource paths are prefixed with /v2."',
  },
  {
    name: 'create-unwrapped-fields',
    file: 'traps/create-unwrapped-fields.mjs',
    run: createUnwrappedFields.run,
    breaks: '4.1: "Request body: a JSON object with one member, data, which holds the fields of section 2.1 (type, password_profile_id, username, password)."',
  },
  {
    name: 'walk-created-at-gt',
    file: 'traps/walk-created-at-gt.mjs',
    run: walkCreatedAtGt.run,
    collections: ['orders'],
    breaks: '4.3 step 3: "For each next page, add a filter that the attribute is greater than or equal to (or, for unique id, greater than) the last value of the previous page."',
  },
  {
    name: 'keyset-unsorted-first-page',
    file: 'traps/keyset-unsorted-first-page.mjs',
    run: keysetUnsortedFirstPage.run,
    collections: ['accounts'],
    breaks: '4.3 step 2: "Request the first page with sort=<attribute>."',
  },
  {
    name: 'id-walk-stops-short-page',
    file: 'traps/id-walk-stops-short-page.mjs',
    run: idWalkStopsShortPage.run,
    collections: ['files'],
    breaks: '4.3 step 4: "For id-sorted reads, stop when a page returns zero records."',
  },
  {
    name: 'orders-offset-past-limit',
    file: 'traps/orders-offset-past-limit.mjs',
    run: ordersOffsetPastLimit.run,
    collections: ['orders'],
    breaks: '8: "Offset limit for /v2/orders and /v2/files | Hard limit of 10,000 records."',
  },
  {
    name: 'ge-walk-skips-tied-page',
    file: 'traps/ge-walk-skips-tied-page.mjs',
    run: geWalkSkipsTiedPage.run,
    collections: ['orders'],
    breaks: '4.3: "With timestamps, a page may need further paging if many records share the same timestamp. This is the case when the first and last timestamps of a page are identical."',
  },
  {
    name: 'offset-counted-in-pages',
    file: 'traps/offset-counted-in-pages.mjs',
    run: offsetCountedInPages.run,
    collections: ['accounts'],
    breaks: '2.3: "page[offset] | Current offset counted in records, not pages. Zero-based."',
  },
  {
    name: 'page-limit-over-maximum',
    file: 'traps/page-limit-over-maximum.mjs',
    run: pageLimitOverMaximum.run,
    collections: ['accounts'],
    breaks: '8: "Maximum page length | 100 on any paginated call."',
  },
];
