import { Avatar } from '@mantine/core';
import { employeeInitials } from './logic';

interface AvatarPerson {
  photo: string | null;
  name: string;
  first_name: string;
  last_name: string;
}

/** An employee's photo, or their initials on a colour of their name (the list, the grid, the modal). */
export function EmployeeAvatar({ employee, size }: { employee: AvatarPerson; size: number }) {
  return (
    <Avatar
      src={employee.photo ?? undefined}
      alt=""
      size={size}
      radius="xl"
      color="initials"
      name={employee.name}
      aria-hidden="true"
    >
      {employeeInitials(employee)}
    </Avatar>
  );
}
