export { Button, type ButtonProps } from './Button';
export { Field, Input, Checkbox, type FieldProps, type InputProps } from './Field';
export { TextField, type TextFieldProps } from './TextField';
export { Table, type Column, type SortState, type TableProps } from './Table';
export { Badge, type BadgeTone } from './Badge';
export { Banner, type BannerProps } from './Banner';
export { EmptyState, LoadingState, ErrorState } from './States';
export { Dialog, FormDialogFooter, type DialogProps } from './Dialog';
export {
  ToastProvider,
  ToastRegion,
  useToast,
  useToastsLeaveWith,
  type ToastAction,
  type ToastKind,
} from './Toast';
export { copyText } from './clipboard';
export { ServerGateContext, type ServerGate } from './server-gate';
