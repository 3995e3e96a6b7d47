/** The error of a dataset name or file that cannot be used (serve --dataset, run --dataset). */
import { CodedKitError } from '../kit-errors.js';
export type DatasetErrorCode = 'DATASET_UNKNOWN' | 'DATASET_INVALID' | 'DATASET_UNREADABLE';

export class DatasetError extends CodedKitError<DatasetErrorCode> {
  override readonly name = 'DatasetError';
}
