import { Controller, Get, Post } from '@nestjs/common';

export const PAGE_SIZE = 20;
export const TIMEOUT_MS: number = 30 * 1000;

export interface UserDto {
  email: string;
}

@Controller('users')
export class UsersController {
  @Get(':id')
  findOne(id: string): UserDto {
    return { email: id };
  }

  @Post()
  create(): string {
    return 'created';
  }
}

export const CACHE_TTL: number | null = null;
export const paginationDefaults = { page: 1, perPage: 25 };

export function retry(): void {
  const attempts = 3;
  schedule({ delayMs: 250 });
}
