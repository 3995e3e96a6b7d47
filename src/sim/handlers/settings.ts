/** Project settings (commerce-api.md §8 "changeable globally per project through a settings endpoint"; docs/api-notes.md "Settings"). */
import { apiError } from '../../engine/api-errors.js';
import { MAX_PAGE_LENGTH } from '../../engine/pagination.js';
import type { Handler, RequestContext } from '../context.js';
import { errors, isJsonObject, json, parseJsonBody } from '../respond.js';

const view = (ctx: RequestContext) => ({ data: { type: 'settings', ...ctx.project.settings } });

export const getSettings: Handler = (ctx) => json(200, view(ctx));

export const putSettings: Handler = (ctx) => {
  const body = parseJsonBody(ctx.req.body);
  if (!body.ok) return body.response;
  const fields = isJsonObject(body.value) ? body.value['data'] : undefined;
  if (!isJsonObject(fields)) return errors([apiError('bad-request', "The request body must be a JSON object with a 'data' object", 'data')]);
  if (fields['page_offset_limit'] !== undefined && fields['page_offset_limit'] !== ctx.project.settings.page_offset_limit) {
    return errors([apiError('bad-request', 'page_offset_limit is read-only; the operator raises it', 'data.page_offset_limit')]);
  }
  const pageLength = fields['page_length'];
  if (pageLength !== undefined) {
    if (typeof pageLength !== 'number' || !Number.isInteger(pageLength) || pageLength < 1 || pageLength > MAX_PAGE_LENGTH) {
      return errors([apiError('bad-request', `page_length must be a whole number from 1 to ${MAX_PAGE_LENGTH}`, 'data.page_length')]);
    }
    ctx.project.settings.page_length = pageLength;
  }
  return json(200, view(ctx));
};
