// A form field's own error, under it; the field names it in aria-describedby (id).
export function FieldError(props: { id: string; message: string | undefined }) {
  if (!props.message) return null;
  return (
    <small id={props.id} class="error">
      {props.message}
    </small>
  );
}
